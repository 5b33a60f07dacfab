import { useEffect } from "react";
import { toast } from "~/components/ui/toaster";

/** Shows a message an action left for the page (see flash.server.ts) once, as a toast. */
export function useFlashToast(flash: { id: string; message: string; description?: string } | null | undefined) {
  const id = flash?.id;
  const message = flash?.message;
  const description = flash?.description;
  useEffect(() => {
    if (id && message) toast.success(message, description ? { description } : undefined);
  }, [id, message, description]);
}
