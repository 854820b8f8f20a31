import {
  BorderOutlined,
  CompressOutlined,
  EyeOutlined,
  RedoOutlined,
  SaveOutlined,
  UndoOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from '@ant-design/icons';
import {
  fitScale,
  type LayoutDocument,
  layoutDocumentSchema,
  type MaterialLookup,
  type RenderMaterial,
  ruleOfError,
} from '@marquee/layout';
import { ErrorCode } from '@marquee/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, type ButtonProps, Empty, Input, Tabs } from 'antd';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { domainKey } from '../../api/queries';
import { usePageLeaveTip as useLeaveTip } from '../../components/leaveTip';
import { TipButton } from '../../components/TipButton';
import { currentLocale } from '../../i18n';
import { createLayout, updateLayout } from './api';
import { Canvas, clampZoom } from './Canvas';
import { LayersPanel } from './LayersPanel';
import { EditorMaterialsContext, mergeLookups } from './materialsContext';
import { PagesPanel } from './PagesPanel';
import { Palette } from './Palette';
import { PreviewDialog } from './PreviewDialog';
import { PropertiesPanel } from './PropertiesPanel';
import { type EditorState, isDirty } from './state/editorState';
import { useAfterFirstPaint, useEditorKeys, useEditorState } from './useEditor';

/** What the editor opens: a saved layout (id, version) or a new one not saved yet. */
export interface Opened {
  id: string | null;
  name: string;
  version: number;
  document: LayoutDocument;
  materials: MaterialLookup;
  readOnly: boolean;
}

/**
 * The editor of one opened layout: toolbar, palette and layers, canvas, pages and properties.
 * Its own chunk (react-moveable, the renderer, the panels), which LayoutEditorPage loads while
 * template.info answers.
 */
export function LayoutEditor({
  opened,
  initialState,
  onReload,
  onCreated,
}: {
  opened: Opened;
  initialState: EditorState | null;
  onReload: (id: string) => void;
  onCreated: (next: { id: string; opened: Opened; state: EditorState }) => void;
}) {
  const { t } = useTranslation('layoutEditor');
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [state, dispatch] = useEditorState(opened.document, initialState);
  // The side panels (palette and layers, properties) join a frame after the page is drawn.
  const panels = useAfterFirstPaint(initialState !== null);
  const [name, setName] = useState(opened.name);
  const [savedName, setSavedName] = useState(opened.name);
  const [layoutId, setLayoutId] = useState(opened.id);
  const [version, setVersion] = useState(opened.version);
  const [saving, setSaving] = useState(false);
  const [zoom, setZoom] = useState(0.5);
  const [grid, setGrid] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const viewportRef = useRef<HTMLDivElement | null>(null);
  // Materials picked from the library while editing join those the layout's detail answered.
  const [picked, setPicked] = useState<Readonly<Record<string, RenderMaterial>>>({});
  const materials = useMemo(() => mergeLookups(opened.materials, picked), [opened.materials, picked]);
  const remember = useCallback(
    (more: Readonly<Record<string, RenderMaterial>>) => setPicked((current) => ({ ...current, ...more })),
    [],
  );
  const materialsContext = useMemo(() => ({ materials, remember }), [materials, remember]);
  const locale = currentLocale();

  const unsaved = isDirty(state) || name !== savedName || layoutId === null;
  // After the first save (its leave tip cleared by then), the editor moves to the layout's own URL.
  const [created, setCreated] = useState<{ id: string; opened: Opened } | null>(null);
  const handedOver = useRef(false);
  useEffect(() => {
    if (!created || unsaved || handedOver.current) return;
    handedOver.current = true;
    onCreated({ ...created, state });
  }, [created, unsaved, onCreated, state]);
  useLeaveTip(unsaved && !opened.readOnly);
  useEditorKeys(dispatch, !previewing && !opened.readOnly);

  // The reducer's refusals ('a layout must keep one page', 'select a component first', ...).
  const lastNotice = useRef(0);
  useEffect(() => {
    if (!state.notice || state.notice.seq === lastNotice.current) return;
    lastNotice.current = state.notice.seq;
    message.warning({ content: t(`notice.${state.notice.key}`), key: 'le-notice' });
  }, [state.notice, message, t]);

  const fit = useCallback(() => {
    const el = viewportRef.current;
    if (!el) return;
    const scale = fitScale(state.doc, el.clientWidth - 48, el.clientHeight - 48);
    if (scale > 0) setZoom(clampZoom(scale));
  }, [state.doc]);
  // Fit once the canvas has its size.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on open only
  useLayoutEffect(() => fit(), []);

  const save = async () => {
    const trimmed = name.trim();
    if (!trimmed) {
      message.error(t('save.nameRequired'));
      return;
    }
    const parsed = layoutDocumentSchema.safeParse(state.doc);
    if (!parsed.success) {
      const rule = ruleOfError(parsed.error);
      message.error(t(rule ? `notice.rule.${rule}` : 'save.invalid'));
      return;
    }
    const doc = state.doc;
    setSaving(true);
    try {
      if (layoutId === null) {
        const created = await createLayout(trimmed, doc);
        setLayoutId(created.id);
        setVersion(created.version);
        setCreated({
          id: created.id,
          opened: { ...opened, id: created.id, name: trimmed, version: created.version, materials },
        });
      } else {
        const updated = await updateLayout(layoutId, trimmed, doc, version);
        setVersion(updated.version);
      }
      dispatch({ type: 'markSaved', doc });
      setSavedName(trimmed);
      setName(trimmed);
      message.success(t('save.done'));
      // The layout and the template list.
      void queryClient.invalidateQueries({ queryKey: domainKey('templates') });
    } catch (error) {
      if (error instanceof ApiError && error.code === ErrorCode.LAYOUT_VERSION_CONFLICT && layoutId) {
        modal.confirm({
          title: t('save.conflictTitle'),
          content: t('save.conflict'),
          okText: t('save.reload'),
          cancelText: t('save.keepEditing'),
          okButtonProps: { 'data-testid': 'le-conflict-reload' } as ButtonProps,
          onOk: () => onReload(layoutId),
        });
      } else if (error instanceof ApiError) {
        message.error(error.message);
      }
    } finally {
      setSaving(false);
    }
  };

  const readOnly = opened.readOnly;
  const percent = Math.round(zoom * 100);
  return (
    <EditorMaterialsContext.Provider value={materialsContext}>
      <div className="mq-view mq-le" data-testid="layout-editor">
        <div className="mq-le-toolbar">
          <Input
            className="mq-le-name"
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
            placeholder={t('name.placeholder')}
            disabled={readOnly}
            data-testid="le-name"
            aria-label={t('name.label')}
          />
          <span className="mq-le-size">
            {state.doc.width} × {state.doc.height}
          </span>
          <div className="mq-le-toolbar-group">
            <TipButton
              label={t('toolbar.undo')}
              icon={<UndoOutlined />}
              disabled={state.past.length === 0 || readOnly}
              onClick={() => dispatch({ type: 'undo' })}
              testId="le-undo"
            />
            <TipButton
              label={t('toolbar.redo')}
              icon={<RedoOutlined />}
              disabled={state.future.length === 0 || readOnly}
              onClick={() => dispatch({ type: 'redo' })}
              testId="le-redo"
            />
          </div>
          <div className="mq-le-toolbar-group">
            <TipButton
              label={t('toolbar.zoomOut')}
              icon={<ZoomOutOutlined />}
              onClick={() => setZoom((z) => clampZoom(z / 1.25))}
              testId="le-zoom-out"
            />
            <span className="mq-le-zoom" data-testid="le-zoom">
              {percent}%
            </span>
            <TipButton
              label={t('toolbar.zoomIn')}
              icon={<ZoomInOutlined />}
              onClick={() => setZoom((z) => clampZoom(z * 1.25))}
              testId="le-zoom-in"
            />
            <TipButton label={t('toolbar.fit')} icon={<CompressOutlined />} onClick={fit} testId="le-fit" />
            <TipButton
              label={t('toolbar.grid')}
              icon={<BorderOutlined />}
              type={grid ? 'primary' : 'default'}
              onClick={() => setGrid((g) => !g)}
              testId="le-grid-toggle"
              aria-pressed={grid}
            />
          </div>
          <div className="mq-le-toolbar-end">
            {readOnly ? <span className="mq-le-readonly">{t('readOnly')}</span> : null}
            <Button icon={<EyeOutlined />} onClick={() => setPreviewing(true)} data-testid="le-preview">
              {t('toolbar.preview')}
            </Button>
            <Button
              type="primary"
              icon={<SaveOutlined />}
              loading={saving}
              disabled={readOnly}
              onClick={save}
              data-testid="le-save"
            >
              {t('toolbar.save')}
            </Button>
          </div>
        </div>
        <div className={`mq-le-body${readOnly ? ' is-readonly' : ''}`}>
          <aside className="mq-le-left">
            {panels ? (
              <Tabs
                size="small"
                items={[
                  { key: 'components', label: t('tab.components'), children: <Palette dispatch={dispatch} /> },
                  {
                    key: 'layers',
                    label: t('tab.layers'),
                    children: <LayersPanel state={state} dispatch={dispatch} />,
                  },
                ]}
              />
            ) : null}
          </aside>
          <main className="mq-le-center">
            <Canvas
              state={state}
              dispatch={dispatch}
              zoom={zoom}
              onZoom={setZoom}
              grid={grid}
              materials={materials}
              locale={locale}
              viewportRef={viewportRef}
              active={!previewing && !readOnly}
            />
            <PagesPanel state={state} dispatch={dispatch} />
          </main>
          <aside className="mq-le-right">
            {!panels ? null : state.doc.pages.length ? (
              <PropertiesPanel state={state} dispatch={dispatch} />
            ) : (
              <Empty />
            )}
          </aside>
        </div>
        <PreviewDialog
          open={previewing}
          onClose={() => setPreviewing(false)}
          doc={state.doc}
          materials={materials}
          locale={locale}
          title={name || t('name.placeholder')}
        />
      </div>
    </EditorMaterialsContext.Provider>
  );
}
