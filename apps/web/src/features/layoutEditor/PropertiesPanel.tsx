import {
  type ButtonAction,
  CLOCK_FORMATS,
  COUNTDOWN_FORMATS,
  httpUrlSchema,
  LAYOUT_LIMITS,
  type LayoutComponent,
  type LayoutDocument,
  shareSymbolSchema,
} from '@marquee/layout';
import { AutoComplete, Button, Divider, Empty, Input, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field, NumberField, SelectField, SwitchField, TextField } from './fields';
import { useModule } from './lazyModule';
import { MaterialField } from './MaterialField';
import { ChoiceRow, ColorRow, NumberRow, SelectRow, SwitchRow, TextRow } from './propRows';
import { currentPage, type EditorState, selectedComponent, supports } from './state/editorState';
import type { EditorDispatch } from './useEditor';

const loadDateTimeField = () => import('./DateTimeField');

/** A page of the document (the package's `LayoutPage` name is also its renderer component). */
type LayoutPage = LayoutDocument['pages'][number];

const urlError = (value: string) => (value === '' || httpUrlSchema.safeParse(value).success ? null : 'error.url');

function timeZones(): string[] {
  try {
    return (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('timeZone');
  } catch {
    return ['UTC'];
  }
}

/** The selected component's properties, or the page's when nothing is selected. */
export function PropertiesPanel({ state, dispatch }: { state: EditorState; dispatch: EditorDispatch }) {
  const c = selectedComponent(state);
  return (
    <div className="mq-le-props" data-testid="le-props">
      {c ? (
        <ComponentProps key={c.id} c={c} doc={state.doc} dispatch={dispatch} />
      ) : (
        <PageProps page={currentPage(state)} doc={state.doc} dispatch={dispatch} />
      )}
    </div>
  );
}

function PageProps({ page, doc, dispatch }: { page: LayoutPage; doc: LayoutDocument; dispatch: EditorDispatch }) {
  const { t } = useTranslation('layoutEditor');
  const update = (patch: Partial<Pick<LayoutPage, 'name' | 'duration' | 'background'>>) =>
    dispatch({ type: 'updatePage', pageId: page.id, patch });
  const background = (patch: Partial<LayoutPage['background']>) =>
    update({ background: { ...page.background, ...patch } });
  return (
    <>
      <Typography.Title level={5}>{t('props.page')}</Typography.Title>
      <Typography.Paragraph type="secondary" className="mq-le-hint">
        {t('props.noSelection')}
      </Typography.Paragraph>
      <TextRow
        of={page}
        name="name"
        set={update}
        label={t('props.pageName')}
        maxLength={LAYOUT_LIMITS.maxNameLength}
        testId="le-page-name"
      />
      <NumberRow
        of={page}
        name="duration"
        set={update}
        label={t('props.pageDuration')}
        min={LAYOUT_LIMITS.minPageDuration}
        max={LAYOUT_LIMITS.maxPageDuration}
        suffix={t('unit.seconds')}
        testId="le-page-duration"
      />
      <ColorRow of={page.background} name="color" set={background} label={t('props.background')} />
      <Field label={t('props.backgroundPicture')}>
        <MaterialField
          kind="image"
          single
          value={page.background.materialId ? [{ materialId: page.background.materialId, duration: 10 }] : []}
          onCommit={(items) => background({ materialId: items[0]?.materialId ?? null })}
        />
      </Field>
      <Divider />
      <Typography.Text type="secondary">
        {t('props.layoutSize', { width: doc.width, height: doc.height })}
      </Typography.Text>
    </>
  );
}

function ComponentProps({ c, doc, dispatch }: { c: LayoutComponent; doc: LayoutDocument; dispatch: EditorDispatch }) {
  const { t } = useTranslation('layoutEditor');
  const prop = (patch: Record<string, unknown>) => dispatch({ type: 'updateProps', id: c.id, patch });
  const base = (patch: Partial<Pick<LayoutComponent, 'name' | 'timing' | 'rtbSlot'>>) =>
    dispatch({ type: 'updateBase', id: c.id, patch });
  const box = (patch: Partial<Record<'x' | 'y' | 'w' | 'h' | 'rotation', number>>) =>
    dispatch({ type: 'transform', id: c.id, box: patch });
  const max = 2 * LAYOUT_LIMITS.maxSize;
  return (
    <>
      <Typography.Title level={5}>{t(`type.${c.type}`)}</Typography.Title>
      <TextRow of={c} name="name" set={base} maxLength={LAYOUT_LIMITS.maxNameLength} testId="le-prop-name" />
      <div className="mq-le-grid2">
        <NumberRow of={c} name="x" set={box} label="X" min={-LAYOUT_LIMITS.maxSize} max={max} testId="le-prop-x" />
        <NumberRow of={c} name="y" set={box} label="Y" min={-LAYOUT_LIMITS.maxSize} max={max} testId="le-prop-y" />
        <NumberRow of={c} name="w" set={box} label={t('props.width')} min={1} max={max} testId="le-prop-w" />
        <NumberRow of={c} name="h" set={box} label={t('props.height')} min={1} max={max} testId="le-prop-h" />
      </div>
      {supports(c.type, 'rotate') ? (
        <NumberRow of={c} name="rotation" set={box} min={-360} max={360} suffix="°" />
      ) : null}
      <div className="mq-le-grid2">
        <Field label={t('props.start')}>
          <NumberField
            value={c.timing.start}
            min={0}
            max={LAYOUT_LIMITS.maxPageDuration}
            suffix={t('unit.seconds')}
            onCommit={(start) =>
              start !== null &&
              (c.timing.end === null || c.timing.end > start) &&
              base({ timing: { ...c.timing, start } })
            }
          />
        </Field>
        <Field label={t('props.end')}>
          <NumberField
            value={c.timing.end}
            allowEmpty
            min={0}
            max={LAYOUT_LIMITS.maxPageDuration}
            suffix={t('unit.seconds')}
            onCommit={(end) => (end === null || end > c.timing.start) && base({ timing: { ...c.timing, end } })}
          />
        </Field>
      </div>
      <SwitchRow of={c} name="rtbSlot" set={base} />
      <Divider className="mq-le-divider" />
      <TypeProps c={c} doc={doc} prop={prop} />
      <Divider className="mq-le-divider" />
      <Space wrap>
        <Button size="small" onClick={() => dispatch({ type: 'duplicate' })} data-testid="le-duplicate">
          {t('action.duplicate')}
        </Button>
        <Button
          size="small"
          danger
          disabled={c.locked}
          onClick={() => dispatch({ type: 'delete' })}
          data-testid="le-delete"
        >
          {t('action.delete')}
        </Button>
      </Space>
    </>
  );
}

type Prop = (patch: Record<string, unknown>) => void;

/** A button's action: none, jump to a page of this layout, or open a URL (kept once the URL is valid). */
function ButtonActionField({ action, doc, prop }: { action: ButtonAction; doc: LayoutDocument; prop: Prop }) {
  const { t } = useTranslation('layoutEditor');
  const [pending, setPending] = useState<ButtonAction['kind'] | null>(null);
  const kind = pending ?? action.kind;
  return (
    <>
      <Field label={t('props.action')}>
        <SelectField
          value={kind}
          options={(['none', 'jumpPage', 'openUrl'] as const).map((v) => ({ value: v, label: t(`buttonAction.${v}`) }))}
          onCommit={(next) => {
            if (next === 'openUrl') {
              setPending('openUrl');
              return;
            }
            setPending(null);
            prop({ action: next === 'jumpPage' ? { kind: next, pageId: doc.pages[0].id } : { kind: 'none' } });
          }}
          testId="le-prop-action"
        />
      </Field>
      {kind === 'jumpPage' && action.kind === 'jumpPage' ? (
        <Field label={t('props.jumpTo')}>
          <SelectField
            value={action.pageId}
            options={doc.pages.map((pg, i) => ({ value: pg.id, label: pg.name || t('pages.untitled', { n: i + 1 }) }))}
            onCommit={(pageId) => prop({ action: { kind: 'jumpPage', pageId } })}
            testId="le-prop-jumpTo"
          />
        </Field>
      ) : null}
      {kind === 'openUrl' ? (
        <Field label={t('props.url')}>
          <TextField
            value={action.kind === 'openUrl' ? action.url : ''}
            placeholder="https://"
            validate={(v) => (v === '' ? null : urlError(v))}
            onCommit={(url) => {
              if (!url) return;
              setPending(null);
              prop({ action: { kind: 'openUrl', url } });
            }}
            testId="le-prop-actionUrl"
          />
        </Field>
      ) : null}
    </>
  );
}

const FONTS = [
  '',
  'sans-serif',
  'serif',
  'monospace',
  'Microsoft YaHei',
  'PingFang SC',
  'Noto Sans CJK SC',
  'Arial',
  'Helvetica',
];

function TextStyle({
  p,
  prop,
}: {
  p: { color: string; fontFamily: string; fontSize: number; bold: boolean; italic: boolean };
  prop: Prop;
}) {
  const { t } = useTranslation('layoutEditor');
  return (
    <>
      <div className="mq-le-grid2">
        <NumberRow of={p} name="fontSize" set={prop} min={6} max={2000} testId="le-prop-fontSize" />
        <ColorRow of={p} name="color" set={prop} />
      </div>
      <SelectRow
        of={p}
        name="fontFamily"
        set={prop}
        label={t('props.font')}
        options={FONTS.map((f) => ({ value: f, label: f || t('props.fontDefault') }))}
      />
      <div className="mq-le-grid2">
        <SwitchRow of={p} name="bold" set={prop} />
        <SwitchRow of={p} name="italic" set={prop} />
      </div>
    </>
  );
}

function AlignField({ p, prop }: { p: { align: 'left' | 'center' | 'right' }; prop: Prop }) {
  return <ChoiceRow of={p} name="align" set={prop} values={['left', 'center', 'right']} labels="align" />;
}

function FitField({ p, prop }: { p: { fit: 'contain' | 'cover' | 'fill' }; prop: Prop }) {
  return <ChoiceRow of={p} name="fit" set={prop} values={['contain', 'cover', 'fill']} labels="fit" />;
}

function VolumeFields({ p, prop }: { p: { volume: number; muted?: boolean }; prop: Prop }) {
  return (
    <div className="mq-le-grid2">
      <NumberRow of={p} name="volume" set={prop} min={0} max={100} />
      {p.muted !== undefined ? <SwitchRow of={{ muted: p.muted }} name="muted" set={prop} /> : null}
    </div>
  );
}

function UrlFields({ p, prop, refresh }: { p: { url: string; refresh?: number }; prop: Prop; refresh?: boolean }) {
  const { t } = useTranslation('layoutEditor');
  return (
    <>
      <TextRow
        of={p}
        name="url"
        set={prop}
        maxLength={LAYOUT_LIMITS.maxUrlLength}
        placeholder="https://"
        validate={urlError}
        testId="le-prop-url"
      />
      {refresh && p.refresh !== undefined ? (
        <NumberRow
          of={{ refresh: p.refresh }}
          name="refresh"
          set={prop}
          min={0}
          max={86400}
          suffix={t('unit.seconds')}
        />
      ) : null}
    </>
  );
}

function TypeProps({ c, doc, prop }: { c: LayoutComponent; doc: LayoutDocument; prop: Prop }) {
  const { t } = useTranslation('layoutEditor');
  const zones = useMemo(() => (c.type === 'clock' ? timeZones() : []), [c.type]);
  switch (c.type) {
    case 'picture':
    case 'video':
    case 'music': {
      const p = c.props;
      return (
        <>
          <Field label={t('props.materials')}>
            <MaterialField
              kind={c.type === 'picture' ? 'image' : c.type === 'video' ? 'video' : 'audio'}
              value={p.materials}
              withDuration={c.type === 'picture'}
              onCommit={(materials) => prop({ materials })}
            />
          </Field>
          {c.type === 'picture' ? (
            <>
              <FitField p={c.props} prop={prop} />
              <ChoiceRow of={c.props} name="transition" set={prop} values={['none', 'fade']} labels="transition" />
            </>
          ) : null}
          {c.type === 'video' ? (
            <>
              <FitField p={c.props} prop={prop} />
              <VolumeFields p={c.props} prop={prop} />
            </>
          ) : null}
          {c.type === 'music' ? <VolumeFields p={c.props} prop={prop} /> : null}
        </>
      );
    }
    case 'text': {
      const p = c.props;
      const scroll = (patch: Partial<typeof p.scroll>) => prop({ scroll: { ...p.scroll, ...patch } });
      return (
        <>
          <TextRow
            of={p}
            name="content"
            set={prop}
            multiline
            maxLength={LAYOUT_LIMITS.maxTextLength}
            testId="le-prop-content"
          />
          <TextStyle p={p} prop={prop} />
          <SwitchRow of={p} name="underline" set={prop} />
          <ColorRow of={p} name="backgroundColor" set={prop} allowTransparent />
          <AlignField p={p} prop={prop} />
          <ChoiceRow of={p} name="verticalAlign" set={prop} values={['top', 'middle', 'bottom']} labels="valign" />
          <NumberRow of={p} name="lineHeight" set={prop} min={0.5} max={5} step={0.1} precision={2} />
          <div className="mq-le-grid2">
            <ChoiceRow
              of={p.scroll}
              name="direction"
              set={scroll}
              label={t('props.scroll')}
              values={['none', 'left', 'right', 'up', 'down']}
              labels="scroll"
            />
            <NumberRow of={p.scroll} name="speed" set={scroll} min={1} max={2000} />
          </div>
        </>
      );
    }
    case 'weather':
      return (
        <>
          <TextRow of={c.props} name="city" set={prop} maxLength={100} />
          <SelectRow
            of={c.props}
            name="unit"
            set={prop}
            options={[
              { value: 'c', label: '°C' },
              { value: 'f', label: '°F' },
            ]}
          />
          <TextStyle p={c.props} prop={prop} />
        </>
      );
    case 'clock':
      return (
        <>
          <Field label={t('props.clockFormat')}>
            <AutoComplete
              value={c.props.format}
              options={CLOCK_FORMATS.map((f) => ({ value: f }))}
              onSelect={(format: string) => prop({ format })}
              onBlur={(e) => {
                const format = (e.target as HTMLInputElement).value.trim();
                if (format && format !== c.props.format) prop({ format });
              }}
              style={{ width: '100%' }}
              data-testid="le-prop-clockFormat"
            />
          </Field>
          <SelectRow
            of={c.props}
            name="timezone"
            set={prop}
            options={[{ value: '', label: t('props.timezoneScreen') }, ...zones.map((z) => ({ value: z, label: z }))]}
          />
          <TextStyle p={c.props} prop={prop} />
          <AlignField p={c.props} prop={prop} />
        </>
      );
    case 'webPage':
      return <UrlFields p={c.props} prop={prop} refresh />;
    case 'browser':
      return (
        <>
          <UrlFields p={c.props} prop={prop} refresh />
          <SwitchRow of={c.props} name="interactive" set={prop} />
        </>
      );
    case 'button': {
      const p = c.props;
      return (
        <>
          <TextRow of={p} name="label" set={prop} maxLength={200} testId="le-prop-label" />
          <TextStyle p={p} prop={prop} />
          <ColorRow of={p} name="backgroundColor" set={prop} allowTransparent />
          <NumberRow of={p} name="borderRadius" set={prop} min={0} max={1000} />
          <ButtonActionField action={p.action} doc={doc} prop={prop} />
          <div className="mq-le-grid2">
            <Field label={t('props.autoJump')}>
              <SwitchField
                value={p.autoJump !== null}
                onCommit={(on) => prop({ autoJump: on ? 10 : null })}
                testId="le-prop-autoJump"
              />
            </Field>
            {p.autoJump !== null ? (
              <NumberRow
                of={{ autoJump: p.autoJump }}
                name="autoJump"
                set={prop}
                label={t('props.autoJumpAfter')}
                min={1}
                max={86400}
                suffix={t('unit.seconds')}
              />
            ) : null}
          </div>
        </>
      );
    }
    case 'html':
      return <TextRow of={c.props} name="html" set={prop} multiline maxLength={LAYOUT_LIMITS.maxHtmlLength} />;
    case 'liveStream':
      return (
        <>
          <UrlFields p={c.props} prop={prop} />
          <VolumeFields p={c.props} prop={prop} />
        </>
      );
    case 'networkSignal':
      return (
        <>
          <ColorRow of={c.props} name="color" set={prop} />
          <SwitchRow of={c.props} name="showLabel" set={prop} />
          <NumberRow of={c.props} name="fontSize" set={prop} min={6} max={2000} />
        </>
      );
    case 'countdown': {
      const p = c.props;
      return (
        <>
          <Field label={t('props.target')}>
            <CountdownTarget value={p.target} onCommit={(target) => prop({ target })} />
          </Field>
          <ChoiceRow
            of={p}
            name="format"
            set={prop}
            label={t('props.countdownFormat')}
            values={COUNTDOWN_FORMATS}
            labels="countdownFormat"
          />
          <TextRow of={p} name="finishedText" set={prop} maxLength={200} />
          <TextStyle p={p} prop={prop} />
          <AlignField p={p} prop={prop} />
        </>
      );
    }
    case 'qrCode':
      return (
        <>
          <TextRow
            of={c.props}
            name="content"
            set={prop}
            label={t('props.qrContent')}
            multiline
            maxLength={LAYOUT_LIMITS.maxQrLength}
            testId="le-prop-qr"
          />
          <div className="mq-le-grid2">
            <ColorRow of={c.props} name="color" set={prop} />
            <ColorRow of={c.props} name="backgroundColor" set={prop} />
          </div>
          <NumberRow of={c.props} name="margin" set={prop} min={0} max={16} />
        </>
      );
    case 'shares':
      return (
        <>
          <Field label={t('props.symbols')}>
            <TextField
              value={c.props.symbols.join(', ')}
              onCommit={(text) => prop({ symbols: parseSymbols(text) })}
              validate={symbolsError}
              multiline
              maxLength={500}
              placeholder="600519.SH, 0700.HK, AAPL"
              testId="le-prop-symbols"
            />
          </Field>
          <ChoiceRow
            of={c.props}
            name="direction"
            set={prop}
            label={t('props.sharesDirection')}
            values={['vertical', 'horizontal']}
            labels="sharesDirection"
          />
          <div className="mq-le-grid2">
            <SwitchRow of={c.props} name="showName" set={prop} />
            <SwitchRow of={c.props} name="showChange" set={prop} />
          </div>
          <div className="mq-le-grid2">
            <ColorRow of={c.props} name="upColor" set={prop} />
            <ColorRow of={c.props} name="downColor" set={prop} />
          </div>
          <TextStyle p={c.props} prop={prop} />
        </>
      );
    default:
      return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  }
}

/** Share symbols typed with commas (ASCII or CJK), spaces or new lines; upper-cased, each once. */
function parseSymbols(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,，、;；\s]+/)
        .map((s) => s.trim().toUpperCase())
        .filter(Boolean),
    ),
  ];
}

function symbolsError(text: string): string | null {
  const symbols = parseSymbols(text);
  if (symbols.length > 20) return 'props.symbolsTooMany';
  return symbols.every((s) => shareSymbolSchema.safeParse(s).success) ? null : 'props.symbolsInvalid';
}

/** The countdown's target (the date picker's chunk loads with the first countdown selected). */
function CountdownTarget({ value, onCommit }: { value: string; onCommit: (value: string) => void }) {
  const DateTimeField = useModule(loadDateTimeField).module?.default;
  return DateTimeField ? (
    <DateTimeField value={value} onCommit={onCommit} testId="le-prop-target" />
  ) : (
    <Input disabled value={value} />
  );
}
