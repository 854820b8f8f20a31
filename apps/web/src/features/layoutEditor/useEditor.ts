import type { LayoutDocument } from '@marquee/layout';
import { type Dispatch, useEffect, useReducer, useState } from 'react';
import { type EditorAction, type EditorState, editorReducer, initEditorState } from './state/editorState';

export type EditorDispatch = Dispatch<EditorAction>;

/** The editor's state for one document (the reducer of state/editorState.ts). */
export function useEditorState(doc: LayoutDocument, initial?: EditorState | null): [EditorState, EditorDispatch] {
  return useReducer(editorReducer, doc, (d) => initial ?? initEditorState(d));
}

/**
 * False until the frame after the first one was drawn (then true): what the editor can draw a
 * moment later (side panels, the selection's handles) waits for it, so opening a layout draws
 * its page first. `ready` starts it true (an editor taking over a state already on screen).
 */
export function useAfterFirstPaint(ready = false): boolean {
  const [painted, setPainted] = useState(ready);
  useEffect(() => {
    if (painted) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The next frame's callback runs before that frame is drawn; a task queued from it runs after.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [painted]);
  return painted;
}

/** True when the key event comes from a field the user types in (the editor's keys then do nothing). */
function isTyping(event: KeyboardEvent): boolean {
  const el = event.target as HTMLElement | null;
  if (!el || typeof el.closest !== 'function') return false;
  if (el.isContentEditable) return true;
  return Boolean(el.closest('input, textarea, select, [contenteditable="true"], .ant-select, .ant-picker, .ant-modal'));
}

/**
 * The editor's keyboard: arrows nudge the selection (Shift: 10 px), Delete/Backspace delete it,
 * Ctrl+C / Ctrl+V copy and paste, Ctrl+Z undo, Ctrl+Shift+Z and Ctrl+Y redo, Escape deselects.
 * (Cmd on macOS.) Keys typed in a field are the field's.
 */
export function useEditorKeys(dispatch: EditorDispatch, enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (isTyping(event)) return;
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key;
      let action: EditorAction | null = null;
      const step = event.shiftKey ? 10 : 1;
      if (!mod && key === 'ArrowLeft') action = { type: 'nudge', dx: -step, dy: 0 };
      else if (!mod && key === 'ArrowRight') action = { type: 'nudge', dx: step, dy: 0 };
      else if (!mod && key === 'ArrowUp') action = { type: 'nudge', dx: 0, dy: -step };
      else if (!mod && key === 'ArrowDown') action = { type: 'nudge', dx: 0, dy: step };
      else if (!mod && (key === 'Delete' || key === 'Backspace')) action = { type: 'delete' };
      else if (!mod && key === 'Escape') action = { type: 'select', id: null };
      else if (mod && key.toLowerCase() === 'z') action = { type: event.shiftKey ? 'redo' : 'undo' };
      else if (mod && key.toLowerCase() === 'y') action = { type: 'redo' };
      else if (mod && key.toLowerCase() === 'c') action = { type: 'copy' };
      else if (mod && key.toLowerCase() === 'v') action = { type: 'paste' };
      else if (mod && key.toLowerCase() === 'd') action = { type: 'duplicate' };
      if (!action) return;
      event.preventDefault();
      dispatch(action);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [dispatch, enabled]);
}
