import { useRef, useState } from "react";

/**
 * A list row that turns into a rename form: `start` opens it, `done` closes it and puts the focus back on the
 * row's Rename button (where the keyboard user started, not the top of the page).
 */
export function useInlineRename() {
  const [isRenaming, setRenaming] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);
  return {
    isRenaming,
    renameButton,
    start: () => setRenaming(true),
    done: () => {
      setRenaming(false);
      requestAnimationFrame(() => renameButton.current?.focus());
    },
  };
}
