import { Button } from "./button";

/**
 * A button whose action is asked about first (a deletion, a removal, stopping something live):
 * `onConfirm` runs only once the user agrees to `question`; with no question it runs at once.
 */
export function ConfirmButton({
  question,
  onConfirm,
  ...props
}: Omit<Parameters<typeof Button>[0], "onClick"> & { question: string | undefined; onConfirm: () => void }) {
  return (
    <Button
      {...props}
      onClick={() => {
        if (question === undefined || window.confirm(question)) onConfirm();
      }}
    />
  );
}
