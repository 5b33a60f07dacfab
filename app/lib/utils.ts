import { clsx, type ClassValue } from "clsx";
import { mergeClasses } from "./class-names";

/** Joins class names; of two that set the same thing under the same variants, the later wins. */
export function cn(...inputs: ClassValue[]) {
  return mergeClasses(clsx(inputs));
}
