import {
  type ButtonAction,
  CLOCK_FORMATS,
  COUNTDOWN_FORMATS,
  httpUrlSchema,
  LAYOUT_LIMITS,
  type LayoutComponent,
  type LayoutDocument,
} from '@marquee/layout';
import { AutoComplete, Button, Divider, Empty, Input, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ColorField, Field, NumberField, SelectField, SwitchField, TextField } from './fields';
import { useModule } from './lazyModule';
import { MaterialField } from './MaterialField';
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
  return (
    <>
      <Typography.Title level={5}>{t('props.page')}</Typography.Title>
      <Typography.Paragraph type="secondary" className="mq-le-hint">
        {t('props.noSelection')}
      </Typography.Paragraph>
      <Field label={t('props.pageName')}>
        <TextField
          value={page.name}
          maxLength={LAYOUT_LIMITS.maxNameLength}
          onCommit={(name) => update({ name })}
          testId="le-page-name"
        />
      </Field>
      <Field label={t('props.pageDuration')}>
        <NumberField
          value={page.duration}
          min={LAYOUT_LIMITS.minPageDuration}
          max={LAYOUT_LIMITS.maxPageDuration}
          suffix={t('unit.seconds')}
          onCommit={(v) => v !== null && update({ duration: v })}
          testId="le-page-duration"
        />
      </Field>
      <Field label={t('props.background')}>
        <ColorField
          value={page.background.color}
          onCommit={(color) => update({ background: { ...page.background, color } })}
        />
      </Field>
      <Field label={t('props.backgroundPicture')}>
        <MaterialField
          kind="image"
          single
          value={page.background.materialId ? [{ materialId: page.background.materialId, duration: 10 }] : []}
          onCommit={(items) => update({ background: { ...page.background, materialId: items[0]?.materialId ?? null } })}
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
  const box = (patch: Partial<Record<'x' | 'y' | 'w' | 'h' | 'rotation', number>>) =>
    dispatch({ type: 'transform', id: c.id, box: patch });
  const max = 2 * LAYOUT_LIMITS.maxSize;
  return (
    <>
      <Typography.Title level={5}>{t(`type.${c.type}`)}</Typography.Title>
      <Field label={t('props.name')}>
        <TextField
          value={c.name}
          maxLength={LAYOUT_LIMITS.maxNameLength}
          onCommit={(name) => dispatch({ type: 'updateBase', id: c.id, patch: { name } })}
          testId="le-prop-name"
        />
      </Field>
      <div className="mq-le-grid2">
        <Field label="X">
          <NumberField
            value={c.x}
            min={-LAYOUT_LIMITS.maxSize}
            max={max}
            onCommit={(x) => x !== null && box({ x })}
            testId="le-prop-x"
          />
        </Field>
        <Field label="Y">
          <NumberField
            value={c.y}
            min={-LAYOUT_LIMITS.maxSize}
            max={max}
            onCommit={(y) => y !== null && box({ y })}
            testId="le-prop-y"
          />
        </Field>
        <Field label={t('props.width')}>
          <NumberField value={c.w} min={1} max={max} onCommit={(w) => w !== null && box({ w })} testId="le-prop-w" />
        </Field>
        <Field label={t('props.height')}>
          <NumberField value={c.h} min={1} max={max} onCommit={(h) => h !== null && box({ h })} testId="le-prop-h" />
        </Field>
      </div>
      {supports(c.type, 'rotate') ? (
        <Field label={t('props.rotation')}>
          <NumberField
            value={c.rotation}
            min={-360}
            max={360}
            suffix="°"
            onCommit={(r) => r !== null && box({ rotation: r })}
          />
        </Field>
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
              dispatch({ type: 'updateBase', id: c.id, patch: { timing: { ...c.timing, start } } })
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
            onCommit={(end) =>
              (end === null || end > c.timing.start) &&
              dispatch({ type: 'updateBase', id: c.id, patch: { timing: { ...c.timing, end } } })
            }
          />
        </Field>
      </div>
      <Field label={t('props.rtbSlot')}>
        <SwitchField
          value={c.rtbSlot}
          onCommit={(rtbSlot) => dispatch({ type: 'updateBase', id: c.id, patch: { rtbSlot } })}
        />
      </Field>
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

function TextStyle({
  p,
  prop,
}: {
  p: { color: string; fontFamily: string; fontSize: number; bold: boolean; italic: boolean };
  prop: Prop;
}) {
  const { t } = useTranslation('layoutEditor');
  const fonts = [
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
  return (
    <>
      <div className="mq-le-grid2">
        <Field label={t('props.fontSize')}>
          <NumberField
            value={p.fontSize}
            min={6}
            max={2000}
            onCommit={(v) => v !== null && prop({ fontSize: v })}
            testId="le-prop-fontSize"
          />
        </Field>
        <Field label={t('props.color')}>
          <ColorField value={p.color} onCommit={(color) => prop({ color })} />
        </Field>
      </div>
      <Field label={t('props.font')}>
        <SelectField
          value={p.fontFamily}
          options={fonts.map((f) => ({ value: f, label: f || t('props.fontDefault') }))}
          onCommit={(fontFamily) => prop({ fontFamily })}
        />
      </Field>
      <div className="mq-le-grid2">
        <Field label={t('props.bold')}>
          <SwitchField value={p.bold} onCommit={(bold) => prop({ bold })} />
        </Field>
        <Field label={t('props.italic')}>
          <SwitchField value={p.italic} onCommit={(italic) => prop({ italic })} />
        </Field>
      </div>
    </>
  );
}

function AlignField({ value, prop }: { value: 'left' | 'center' | 'right'; prop: Prop }) {
  const { t } = useTranslation('layoutEditor');
  return (
    <Field label={t('props.align')}>
      <SelectField
        value={value}
        options={(['left', 'center', 'right'] as const).map((v) => ({ value: v, label: t(`align.${v}`) }))}
        onCommit={(align) => prop({ align })}
      />
    </Field>
  );
}

function FitField({ value, prop }: { value: 'contain' | 'cover' | 'fill'; prop: Prop }) {
  const { t } = useTranslation('layoutEditor');
  return (
    <Field label={t('props.fit')}>
      <SelectField
        value={value}
        options={(['contain', 'cover', 'fill'] as const).map((v) => ({ value: v, label: t(`fit.${v}`) }))}
        onCommit={(fit) => prop({ fit })}
      />
    </Field>
  );
}

function VolumeFields({ p, prop }: { p: { volume: number; muted?: boolean }; prop: Prop }) {
  const { t } = useTranslation('layoutEditor');
  return (
    <div className="mq-le-grid2">
      <Field label={t('props.volume')}>
        <NumberField value={p.volume} min={0} max={100} onCommit={(v) => v !== null && prop({ volume: v })} />
      </Field>
      {p.muted !== undefined ? (
        <Field label={t('props.muted')}>
          <SwitchField value={p.muted} onCommit={(muted) => prop({ muted })} />
        </Field>
      ) : null}
    </div>
  );
}

function UrlFields({ p, prop, refresh }: { p: { url: string; refresh?: number }; prop: Prop; refresh?: boolean }) {
  const { t } = useTranslation('layoutEditor');
  return (
    <>
      <Field label={t('props.url')}>
        <TextField
          value={p.url}
          maxLength={LAYOUT_LIMITS.maxUrlLength}
          placeholder="https://"
          validate={urlError}
          onCommit={(url) => prop({ url })}
          testId="le-prop-url"
        />
      </Field>
      {refresh && p.refresh !== undefined ? (
        <Field label={t('props.refresh')}>
          <NumberField
            value={p.refresh}
            min={0}
            max={86400}
            suffix={t('unit.seconds')}
            onCommit={(v) => v !== null && prop({ refresh: v })}
          />
        </Field>
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
              <FitField value={c.props.fit} prop={prop} />
              <Field label={t('props.transition')}>
                <SelectField
                  value={c.props.transition}
                  options={(['none', 'fade'] as const).map((v) => ({ value: v, label: t(`transition.${v}`) }))}
                  onCommit={(transition) => prop({ transition })}
                />
              </Field>
            </>
          ) : null}
          {c.type === 'video' ? (
            <>
              <FitField value={c.props.fit} prop={prop} />
              <VolumeFields p={c.props} prop={prop} />
            </>
          ) : null}
          {c.type === 'music' ? <VolumeFields p={c.props} prop={prop} /> : null}
        </>
      );
    }
    case 'text': {
      const p = c.props;
      return (
        <>
          <Field label={t('props.content')}>
            <TextField
              value={p.content}
              multiline
              maxLength={LAYOUT_LIMITS.maxTextLength}
              onCommit={(content) => prop({ content })}
              testId="le-prop-content"
            />
          </Field>
          <TextStyle p={p} prop={prop} />
          <Field label={t('props.underline')}>
            <SwitchField value={p.underline} onCommit={(underline) => prop({ underline })} />
          </Field>
          <Field label={t('props.backgroundColor')}>
            <ColorField
              value={p.backgroundColor}
              allowTransparent
              onCommit={(backgroundColor) => prop({ backgroundColor })}
            />
          </Field>
          <AlignField value={p.align} prop={prop} />
          <Field label={t('props.verticalAlign')}>
            <SelectField
              value={p.verticalAlign}
              options={(['top', 'middle', 'bottom'] as const).map((v) => ({ value: v, label: t(`valign.${v}`) }))}
              onCommit={(verticalAlign) => prop({ verticalAlign })}
            />
          </Field>
          <Field label={t('props.lineHeight')}>
            <NumberField
              value={p.lineHeight}
              min={0.5}
              max={5}
              step={0.1}
              precision={2}
              onCommit={(v) => v !== null && prop({ lineHeight: v })}
            />
          </Field>
          <div className="mq-le-grid2">
            <Field label={t('props.scroll')}>
              <SelectField
                value={p.scroll.direction}
                options={(['none', 'left', 'right', 'up', 'down'] as const).map((v) => ({
                  value: v,
                  label: t(`scroll.${v}`),
                }))}
                onCommit={(direction) => prop({ scroll: { ...p.scroll, direction } })}
              />
            </Field>
            <Field label={t('props.speed')}>
              <NumberField
                value={p.scroll.speed}
                min={1}
                max={2000}
                onCommit={(v) => v !== null && prop({ scroll: { ...p.scroll, speed: v } })}
              />
            </Field>
          </div>
        </>
      );
    }
    case 'weather':
      return (
        <>
          <Field label={t('props.city')}>
            <TextField value={c.props.city} maxLength={100} onCommit={(city) => prop({ city })} />
          </Field>
          <Field label={t('props.unit')}>
            <SelectField
              value={c.props.unit}
              options={[
                { value: 'c', label: '°C' },
                { value: 'f', label: '°F' },
              ]}
              onCommit={(unit) => prop({ unit })}
            />
          </Field>
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
          <Field label={t('props.timezone')}>
            <SelectField
              value={c.props.timezone}
              options={[{ value: '', label: t('props.timezoneScreen') }, ...zones.map((z) => ({ value: z, label: z }))]}
              onCommit={(timezone) => prop({ timezone })}
            />
          </Field>
          <TextStyle p={c.props} prop={prop} />
          <AlignField value={c.props.align} prop={prop} />
        </>
      );
    case 'webPage':
      return <UrlFields p={c.props} prop={prop} refresh />;
    case 'browser':
      return (
        <>
          <UrlFields p={c.props} prop={prop} refresh />
          <Field label={t('props.interactive')}>
            <SwitchField value={c.props.interactive} onCommit={(interactive) => prop({ interactive })} />
          </Field>
        </>
      );
    case 'button': {
      const p = c.props;
      const action = p.action;
      return (
        <>
          <Field label={t('props.label')}>
            <TextField value={p.label} maxLength={200} onCommit={(label) => prop({ label })} testId="le-prop-label" />
          </Field>
          <TextStyle p={p} prop={prop} />
          <Field label={t('props.backgroundColor')}>
            <ColorField
              value={p.backgroundColor}
              allowTransparent
              onCommit={(backgroundColor) => prop({ backgroundColor })}
            />
          </Field>
          <Field label={t('props.borderRadius')}>
            <NumberField
              value={p.borderRadius}
              min={0}
              max={1000}
              onCommit={(v) => v !== null && prop({ borderRadius: v })}
            />
          </Field>
          <ButtonActionField action={action} doc={doc} prop={prop} />
          <div className="mq-le-grid2">
            <Field label={t('props.autoJump')}>
              <SwitchField
                value={p.autoJump !== null}
                onCommit={(on) => prop({ autoJump: on ? 10 : null })}
                testId="le-prop-autoJump"
              />
            </Field>
            {p.autoJump !== null ? (
              <Field label={t('props.autoJumpAfter')}>
                <NumberField
                  value={p.autoJump}
                  min={1}
                  max={86400}
                  suffix={t('unit.seconds')}
                  onCommit={(v) => v !== null && prop({ autoJump: v })}
                />
              </Field>
            ) : null}
          </div>
        </>
      );
    }
    case 'html':
      return (
        <Field label={t('props.html')}>
          <TextField
            value={c.props.html}
            multiline
            maxLength={LAYOUT_LIMITS.maxHtmlLength}
            onCommit={(html) => prop({ html })}
          />
        </Field>
      );
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
          <Field label={t('props.color')}>
            <ColorField value={c.props.color} onCommit={(color) => prop({ color })} />
          </Field>
          <Field label={t('props.showLabel')}>
            <SwitchField value={c.props.showLabel} onCommit={(showLabel) => prop({ showLabel })} />
          </Field>
          <Field label={t('props.fontSize')}>
            <NumberField
              value={c.props.fontSize}
              min={6}
              max={2000}
              onCommit={(v) => v !== null && prop({ fontSize: v })}
            />
          </Field>
        </>
      );
    case 'countdown': {
      const p = c.props;
      return (
        <>
          <Field label={t('props.target')}>
            <CountdownTarget value={p.target} onCommit={(target) => prop({ target })} />
          </Field>
          <Field label={t('props.countdownFormat')}>
            <SelectField
              value={p.format}
              options={COUNTDOWN_FORMATS.map((v) => ({ value: v, label: t(`countdownFormat.${v}`) }))}
              onCommit={(format) => prop({ format })}
            />
          </Field>
          <Field label={t('props.finishedText')}>
            <TextField value={p.finishedText} maxLength={200} onCommit={(finishedText) => prop({ finishedText })} />
          </Field>
          <TextStyle p={p} prop={prop} />
          <AlignField value={p.align} prop={prop} />
        </>
      );
    }
    case 'qrCode':
      return (
        <>
          <Field label={t('props.qrContent')}>
            <TextField
              value={c.props.content}
              multiline
              maxLength={LAYOUT_LIMITS.maxQrLength}
              onCommit={(content) => prop({ content })}
              testId="le-prop-qr"
            />
          </Field>
          <div className="mq-le-grid2">
            <Field label={t('props.color')}>
              <ColorField value={c.props.color} onCommit={(color) => prop({ color })} />
            </Field>
            <Field label={t('props.backgroundColor')}>
              <ColorField value={c.props.backgroundColor} onCommit={(backgroundColor) => prop({ backgroundColor })} />
            </Field>
          </div>
          <Field label={t('props.margin')}>
            <NumberField value={c.props.margin} min={0} max={16} onCommit={(v) => v !== null && prop({ margin: v })} />
          </Field>
        </>
      );
    default:
      return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  }
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
