import { useCallback, useState } from 'react';

/**
 * Open state of a dialog plus the item it is about. The item outlives closing, so the dialog
 * keeps its text while it fades out.
 */
export function useDialogState<T = undefined>() {
  const [open, setOpen] = useState(false);
  const [item, setItem] = useState<T | undefined>(undefined);
  const show = useCallback((value?: T) => {
    setItem(value);
    setOpen(true);
  }, []);
  const close = useCallback(() => setOpen(false), []);
  return { open, item, show, close };
}
