import type { ComponentProps } from "react";
import { Button } from "@/components/ui/button";

/** A form's submit button: disabled and saying what it is doing while the request runs. */
export function SubmitButton({ pending, pendingLabel, disabled, children, ...props }: Omit<ComponentProps<typeof Button>, "type"> & { pending: boolean; pendingLabel: string }) {
  return (
    <Button type="submit" disabled={pending || disabled} {...props}>
      {pending ? pendingLabel : children}
    </Button>
  );
}
