import {
  ArrowLeftOutlined,
  BorderOutlined,
  CompressOutlined,
  FontSizeOutlined,
  LineOutlined,
  PictureOutlined,
  QrcodeOutlined,
  RedoOutlined,
  SaveOutlined,
  UndoOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from '@ant-design/icons';
import {
  issueMessage,
  type PosterDocument,
  type PosterNode,
  type PosterNodeType,
  type PosterTemplate,
  posterDocumentSchema,
  posterNameSchema,
} from '@marquee/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Empty, Input, Space, Spin, Tooltip, Typography } from 'antd';
import type Konva from 'konva';
import { useCallback, useEffect, useLayoutEffect, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { domainKey, useCallQuery } from '../../api/queries';
import { validationMessage } from '../../components/zodRule';
import { editorReducer, initialEditorState, newNode, newNodeId } from './editorState';
import { FillPanel } from './FillPanel';
import { LayersPanel } from './LayersPanel';
import { PosterCanvas } from './PosterCanvas';
import { PropertiesPanel } from './PropertiesPanel';
import './poster.css';

const ZOOM_STEPS = [0.05, 0.1, 0.15, 0.25, 0.33, 0.5, 0.67, 0.75, 1, 1.25, 1.5, 2, 3, 4];
const ADDABLE: { type: PosterNodeType; icon: React.ReactNode }[] = [
  { type: 'text', icon: <FontSizeOutlined /> },
  { type: 'image', icon: <PictureOutlined /> },
  { type: 'rect', icon: <BorderOutlined /> },
  { type: 'ellipse', icon: <span className="mq-poster-ellipse-icon" /> },
  { type: 'line', icon: <LineOutlined /> },
  { type: 'qr', icon: <QrcodeOutlined /> },
];

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** The zoom at which the whole poster fits the viewport. */
function fitZoom(viewport: HTMLElement | null, width: number, height: number): number {
  if (!viewport) return 0.5;
  const pad = 48;
  const z = Math.min((viewport.clientWidth - pad) / width, (viewport.clientHeight - pad) / height);
  return Math.max(0.02, Math.min(4, Math.floor(z * 100) / 100));
}

/**
 * The poster template editor (/poster/editor?id=, not cached) and its fill mode (&mode=fill):
 * a Konva canvas with text, images, shapes and QR codes; select, move, resize and rotate with
 * snapping guides; layers (order, lock, hide); a property panel; fields staff fill in;
 * undo/redo of every change; the keyboard (arrows nudge, Delete, Ctrl+C/V, Ctrl+Z/Y, Ctrl+S);
 * zoom and fit. Fill mode shows a form of the template's fields beside the poster, then
 * exports it at full size and records it.
 */
export default function PosterEditorPage() {
  const { t } = useTranslation(['posters', 'common', 'validation']);
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const fill = params.get('mode') === 'fill';
  const navigate = useNavigate();

  const query = useCallQuery(
    'posterTemplateInfo',
    { id },
    {
      enabled: Boolean(id),
      // The editor keeps its own copy; a refetch must not replace unsaved work.
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: 0,
    },
  );

  if (!id) {
    return (
      <div className="mq-view mq-poster-editor-empty">
        <Empty description={t('editor.noTemplate')}>
          <Button type="primary" onClick={() => navigate('/poster')}>
            {t('editor.backToList')}
          </Button>
        </Empty>
      </div>
    );
  }
  if (query.isPending) return <Spin className="mq-poster-loading" />;
  if (!query.data) {
    return (
      <div className="mq-view mq-poster-editor-empty">
        <Empty description={t('editor.notFound')}>
          <Button onClick={() => navigate('/poster')}>{t('editor.backToList')}</Button>
        </Empty>
      </div>
    );
  }
  return fill ? (
    <FillPanel template={query.data} />
  ) : (
    <Editor key={query.data.id} template={query.data} onFill={() => navigate(`/poster/editor?id=${id}&mode=fill`)} />
  );
}

function Editor({ template, onFill }: { template: PosterTemplate; onFill: () => void }) {
  const { t } = useTranslation(['posters', 'common', 'validation']);
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(editorReducer, template.document, initialEditorState);
  const [name, setName] = useState(template.name);
  const [size, setSize] = useState({ width: template.width, height: template.height });
  const [version, setVersion] = useState(template.version);
  const [saving, setSaving] = useState(false);
  const [zoom, setZoom] = useState(0.5);
  const viewport = useRef<HTMLDivElement>(null);
  const stageRef = useRef<Konva.Stage>(null);
  const [nameDirty, setNameDirty] = useState(false);
  const dirty = state.dirty || nameDirty;

  const fit = useCallback(() => setZoom(fitZoom(viewport.current, size.width, size.height)), [size]);
  useLayoutEffect(() => fit(), [fit]);

  const selected = state.doc.nodes.find((n) => n.id === state.selectedId) ?? null;
  const change = useCallback(
    (nodeId: string, patch: Partial<PosterNode>, coalesce?: string) =>
      dispatch({ type: 'update', id: nodeId, patch, coalesce }),
    [],
  );

  const add = (type: PosterNodeType) =>
    dispatch({ type: 'add', node: newNode(type, size, { text: t('defaults.text'), qr: t('defaults.qr') }) });

  const save = async (): Promise<boolean> => {
    const nameCheck = posterNameSchema.safeParse(name);
    if (!nameCheck.success) {
      message.error(`${t('editor.name')}: ${validationMessage(t, issueMessage(nameCheck.error.issues[0]))}`);
      return false;
    }
    const docCheck = posterDocumentSchema.safeParse(state.doc);
    if (!docCheck.success) {
      const issue = docCheck.error.issues[0];
      const at = issue.path[1];
      const node = typeof at === 'number' ? state.doc.nodes[at] : undefined;
      if (node) dispatch({ type: 'select', id: node.id });
      message.error(validationMessage(t, issueMessage(issue)));
      return false;
    }
    setSaving(true);
    try {
      const res = await call('posterTemplateUpdate', {
        id: template.id,
        version,
        name: nameCheck.data,
        ...size,
        document: docCheck.data as PosterDocument,
      });
      setVersion(res.version);
      dispatch({ type: 'saved' });
      setNameDirty(false);
      message.success(t('editor.saved'));
      void queryClient.invalidateQueries({ queryKey: domainKey('posters') });
      return true;
    } catch {
      return false;
    } finally {
      setSaving(false);
    }
  };

  // The keyboard, while no text field has the focus.
  const keyRef = useRef<(e: KeyboardEvent) => void>(() => {});
  keyRef.current = (e: KeyboardEvent) => {
    const mod = e.ctrlKey || e.metaKey;
    if (mod && e.key.toLowerCase() === 's') {
      e.preventDefault();
      void save();
      return;
    }
    if (isTyping(e.target)) return;
    const step = e.shiftKey ? 10 : 1;
    const arrows: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    if (arrows[e.key] && selected) {
      e.preventDefault();
      dispatch({ type: 'nudge', dx: arrows[e.key][0], dy: arrows[e.key][1] });
    } else if ((e.key === 'Delete' || e.key === 'Backspace') && selected && !selected.locked) {
      e.preventDefault();
      dispatch({ type: 'remove', id: selected.id });
    } else if (mod && e.key.toLowerCase() === 'c') {
      dispatch({ type: 'copy' });
    } else if (mod && e.key.toLowerCase() === 'v') {
      e.preventDefault();
      dispatch({ type: 'paste', id: newNodeId() });
    } else if (mod && e.key.toLowerCase() === 'z') {
      e.preventDefault();
      dispatch({ type: e.shiftKey ? 'redo' : 'undo' });
    } else if (mod && e.key.toLowerCase() === 'y') {
      e.preventDefault();
      dispatch({ type: 'redo' });
    } else if (e.key === 'Escape') {
      dispatch({ type: 'select', id: null });
    }
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => keyRef.current(e);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // Leaving with unsaved changes asks the browser's confirmation.
  useEffect(() => {
    if (!dirty) return;
    const onLeave = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onLeave);
    return () => window.removeEventListener('beforeunload', onLeave);
  }, [dirty]);

  const zoomBy = (dir: 1 | -1) => {
    const next =
      dir > 0 ? ZOOM_STEPS.find((z) => z > zoom + 1e-6) : [...ZOOM_STEPS].reverse().find((z) => z < zoom - 1e-6);
    if (next) setZoom(next);
  };

  return (
    <div className="mq-view mq-poster-editor" data-testid="poster-editor">
      <div className="mq-poster-toolbar">
        <Space wrap>
          <Tooltip title={t('editor.backToList')}>
            <Button
              icon={<ArrowLeftOutlined />}
              onClick={() => navigate('/poster')}
              aria-label={t('editor.backToList')}
            />
          </Tooltip>
          <Input
            value={name}
            maxLength={50}
            onChange={(e) => {
              setName(e.target.value);
              setNameDirty(true);
            }}
            aria-label={t('editor.name')}
            className="mq-poster-name"
            data-testid="poster-editor-name"
          />
          <Typography.Text type="secondary">
            {size.width} × {size.height}
          </Typography.Text>
        </Space>
        <Space wrap className="mq-poster-add">
          {ADDABLE.map((a) => (
            <Button key={a.type} icon={a.icon} onClick={() => add(a.type)} data-testid={`poster-add-${a.type}`}>
              {t(`type.${a.type}`)}
            </Button>
          ))}
        </Space>
        <Space wrap>
          <Tooltip title={t('editor.undo')}>
            <Button
              icon={<UndoOutlined />}
              disabled={state.past.length === 0}
              onClick={() => dispatch({ type: 'undo' })}
              aria-label={t('editor.undo')}
              data-testid="poster-undo"
            />
          </Tooltip>
          <Tooltip title={t('editor.redo')}>
            <Button
              icon={<RedoOutlined />}
              disabled={state.future.length === 0}
              onClick={() => dispatch({ type: 'redo' })}
              aria-label={t('editor.redo')}
              data-testid="poster-redo"
            />
          </Tooltip>
          <Button icon={<ZoomOutOutlined />} onClick={() => zoomBy(-1)} aria-label={t('editor.zoomOut')} />
          <Typography.Text className="mq-poster-zoom" data-testid="poster-zoom">
            {Math.round(zoom * 100)}%
          </Typography.Text>
          <Button icon={<ZoomInOutlined />} onClick={() => zoomBy(1)} aria-label={t('editor.zoomIn')} />
          <Button icon={<CompressOutlined />} onClick={fit}>
            {t('editor.fit')}
          </Button>
          <Button
            type="primary"
            icon={<SaveOutlined />}
            loading={saving}
            onClick={() => void save()}
            data-testid="poster-save"
          >
            {dirty ? t('editor.save') : t('editor.savedState')}
          </Button>
          <Button
            onClick={async () => {
              if (!dirty || (await save())) onFill();
            }}
            data-testid="poster-to-fill"
          >
            {t('list.make')}
          </Button>
        </Space>
      </div>
      <div className="mq-poster-body">
        <LayersPanel
          doc={state.doc}
          selectedId={state.selectedId}
          onSelect={(nodeId) => dispatch({ type: 'select', id: nodeId })}
          onChange={(nodeId, patch) => change(nodeId, patch)}
          onReorder={(nodeId, to) => dispatch({ type: 'reorder', id: nodeId, to })}
          onRemove={(nodeId) => dispatch({ type: 'remove', id: nodeId })}
        />
        <div className="mq-poster-viewport" ref={viewport} data-testid="poster-viewport">
          <div className="mq-poster-stage" style={{ width: Math.round(size.width * zoom) }}>
            <PosterCanvas
              doc={state.doc}
              width={size.width}
              height={size.height}
              zoom={zoom}
              mode="edit"
              selectedId={state.selectedId}
              onSelect={(nodeId) => dispatch({ type: 'select', id: nodeId })}
              onChange={(nodeId, patch) => change(nodeId, patch)}
              stageRef={stageRef}
              imagePlaceholder={t('type.image')}
            />
          </div>
        </div>
        <PropertiesPanel
          node={selected}
          doc={state.doc}
          size={size}
          onSize={(next) => {
            setSize(next);
            setNameDirty(true);
          }}
          onBackground={(color) => dispatch({ type: 'background', color })}
          onChange={change}
        />
      </div>
    </div>
  );
}
