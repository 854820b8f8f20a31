import { createEmptyLayout, type MaterialLookup } from '@marquee/layout';
import { Button, Result, Skeleton } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { type OpenedLayout, openLayout } from './api';
import type { Opened } from './LayoutEditor';
import { useModule } from './lazyModule';
import { NewLayoutDialog } from './NewLayoutDialog';
import type { EditorState } from './state/editorState';
import './layoutEditor.css';

const NO_MATERIALS: MaterialLookup = {};

/**
 * The editor's chunk (react-moveable, the renderer, the panels), asked for as soon as this page
 * runs: it loads while template.info answers, not after.
 */
const loadEditor = () => import('./LayoutEditor');

function Loading() {
  return (
    <div className="mq-view" data-testid="layout-editor-loading">
      <Skeleton active paragraph={{ rows: 12 }} />
    </div>
  );
}

/**
 * A new layout's first save moves the editor to /template/edit?id= (a URL that reopens it); the
 * editor there takes over the state, undo history included, instead of loading it again.
 */
let handoff: { id: string; opened: Opened; state: EditorState } | null = null;

function fromServer(l: OpenedLayout): Opened {
  return {
    id: l.id,
    name: l.name,
    version: l.version,
    document: l.document,
    materials: l.materials,
    readOnly: l.isDefault || !l.hasPermission,
  };
}

/**
 * /template/new and /template/edit?id= (spec section 2, not cached): the layout editor. A new
 * layout asks its name and size first; an existing one is opened from template.info.
 */
export default function LayoutEditorPage() {
  const { t } = useTranslation('layoutEditor');
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const isNew = location.pathname === '/template/new';
  const id = params.get('id');
  const [opened, setOpened] = useState<Opened | null>(null);
  const [failed, setFailed] = useState(false);
  // Each (re)open mounts a fresh editor (new history).
  const [openCount, setOpenCount] = useState(0);
  const editor = useModule(loadEditor);

  const load = useCallback(async (layoutId: string) => {
    setFailed(false);
    try {
      const l = await openLayout(layoutId);
      setOpened(fromServer(l));
      setOpenCount((n) => n + 1);
    } catch {
      setFailed(true);
    }
  }, []);

  const [initialState, setInitialState] = useState<EditorState | null>(null);
  useEffect(() => {
    if (isNew || !id) return;
    if (handoff?.id === id) {
      setOpened(handoff.opened);
      setInitialState(handoff.state);
      setOpenCount((n) => n + 1);
      handoff = null;
      return;
    }
    void load(id);
  }, [isNew, id, load]);

  if (isNew && !opened) {
    return (
      <div className="mq-view mq-le-start" data-testid="layout-editor-new">
        <NewLayoutDialog
          open
          onCancel={() => navigate('/template')}
          onCreate={({ name, width, height }) => {
            setOpened({
              id: null,
              name,
              version: 0,
              document: createEmptyLayout({ width, height }),
              materials: NO_MATERIALS,
              readOnly: false,
            });
            setOpenCount((n) => n + 1);
          }}
        />
      </div>
    );
  }
  if (!isNew && !id) {
    return (
      <Result
        status="404"
        title={t('open.noId')}
        extra={<Button onClick={() => navigate('/template')}>{t('open.back')}</Button>}
      />
    );
  }
  if (failed || editor.failed) {
    return (
      <Result
        status="warning"
        title={t('open.failed')}
        extra={
          <Button
            type="primary"
            onClick={() => {
              if (editor.failed) editor.retry();
              if (failed && id) void load(id);
            }}
          >
            {t('open.retry')}
          </Button>
        }
      />
    );
  }
  if (!opened || !editor.module) return <Loading />;
  const { LayoutEditor } = editor.module;
  return (
    <LayoutEditor
      key={openCount}
      opened={opened}
      initialState={initialState}
      onReload={(layoutId) => {
        setInitialState(null);
        void load(layoutId);
      }}
      onCreated={(next) => {
        handoff = next;
        navigate(`/template/edit?id=${encodeURIComponent(next.id)}`, { replace: true });
      }}
    />
  );
}
