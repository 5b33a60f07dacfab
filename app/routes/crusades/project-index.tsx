import { data } from "react-router";

// Not built yet: answers 404 until its screen lands.
export function loader() {
  throw data(null, { status: 404 });
}

export default function Placeholder() {
  return null;
}
