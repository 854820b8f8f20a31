import { createEmptyLayout } from '@marquee/layout';
import { cleanup, configure, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PropertiesPanel } from '../src/features/layoutEditor/PropertiesPanel';
import {
  type EditorAction,
  type EditorState,
  editorReducer,
  initEditorState,
} from '../src/features/layoutEditor/state/editorState';
import { initI18n } from '../src/i18n';
import { installDomShims } from './harness';

vi.setConfig({ testTimeout: 30_000 });

beforeAll(async () => {
  configure({ asyncUtilTimeout: 8000 });
  installDomShims();
  await initI18n('en-US');
});

afterEach(() => cleanup());

function withText(): EditorState {
  const s = initEditorState(createEmptyLayout({ width: 1920, height: 1080 }));
  return editorReducer(s, { type: 'add', componentType: 'text', x: 500, y: 300 });
}

function panel(state: EditorState) {
  const dispatched: EditorAction[] = [];
  render(<PropertiesPanel state={state} dispatch={(a) => dispatched.push(a)} />);
  return dispatched;
}

function edit(testId: string, value: string) {
  const input = screen.getByTestId(testId) as HTMLInputElement;
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

describe('layout editor properties panel: rows bound to a key', () => {
  it('labels a row by its key and commits the key: box, base and props', () => {
    const state = withText();
    const id = state.selectedId as string;
    const dispatched = panel(state);
    for (const label of ['Font size', 'Underline', 'Line height']) {
      expect(screen.getByText(label)).toBeTruthy();
    }
    edit('le-prop-x', '120');
    edit('le-prop-name', 'Headline');
    edit('le-prop-content', 'Hello');
    edit('le-prop-fontSize', '48');
    expect(dispatched).toEqual([
      { type: 'transform', id, box: { x: 120 } },
      { type: 'updateBase', id, patch: { name: 'Headline' } },
      { type: 'updateProps', id, patch: { content: 'Hello' } },
      { type: 'updateProps', id, patch: { fontSize: 48 } },
    ]);
  });

  it('keeps a number row that is emptied (nothing is committed)', () => {
    const dispatched = panel(withText());
    edit('le-prop-w', '');
    expect(dispatched).toEqual([]);
  });

  it('edits the page when nothing is selected', () => {
    const state = initEditorState(createEmptyLayout({ width: 1920, height: 1080 }));
    const dispatched = panel(state);
    edit('le-page-name', 'Morning');
    edit('le-page-duration', '30');
    expect(dispatched).toEqual([
      { type: 'updatePage', pageId: state.pageId, patch: { name: 'Morning' } },
      { type: 'updatePage', pageId: state.pageId, patch: { duration: 30 } },
    ]);
  });
});
