import { useEffect, useRef, useState } from 'preact/hooks';

/** A button whose action runs only after a second, explicit confirmation. */
export function ConfirmButton({
  label,
  question,
  onConfirm,
  danger = false,
  small = false,
}: {
  label: string;
  question: string;
  onConfirm: () => Promise<void> | void;
  danger?: boolean;
  /** As small as the other buttons of a message's line. */
  small?: boolean;
}) {
  const kind = [danger && 'danger', small && 'small'].filter(Boolean).join(' ') || undefined;
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  // The confirmation takes the focus, so a keyboard user answers where they are.
  useEffect(() => {
    if (asking) confirmButton.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button type="button" class={kind} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <fieldset class="confirm">
      <legend>{question}</legend>
      <button
        type="button"
        class={kind}
        disabled={busy}
        ref={confirmButton}
        onClick={async () => {
          setBusy(true);
          try {
            await onConfirm();
          } finally {
            setBusy(false);
            setAsking(false);
          }
        }}
      >
        Confirm {label.toLowerCase()}
      </button>
      <button type="button" class={small ? 'small' : undefined} onClick={() => setAsking(false)}>
        Cancel
      </button>
    </fieldset>
  );
}
