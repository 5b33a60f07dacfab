import { useEffect } from "react";
import { toast } from "~/components/ui/toaster";

/** Shows a message carried across a redirect (see flash.server.ts) once, as a toast. */
export function useFlashToast(flash: { id: string; message: string } | null | undefined) {
  const id = flash?.id;
  const message = flash?.message;
  useEffect(() => {
    if (id && message) toast.success(message);
  }, [id, message]);
}
