import { useState } from 'react';
import type { MouseEvent } from 'react';

/**
 * The open state of a pop-up menu, anchored to the element that opened it. `menuProps` go to MUI's
 * `Menu` as they are; `closeThen` wraps an item's action so the menu is gone before it runs.
 */
export function useMenuAnchor() {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  return {
    isOpen: anchor !== null,
    openAt: (event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget),
    close,
    closeThen: (action: () => void) => () => {
      close();
      action();
    },
    menuProps: { anchorEl: anchor, open: anchor !== null, onClose: close },
  };
}
