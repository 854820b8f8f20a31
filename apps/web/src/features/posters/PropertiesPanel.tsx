import { FolderOpenOutlined } from '@ant-design/icons';
import {
  type Material,
  POSTER_FIELD_TYPES,
  POSTER_MAX_SIZE,
  POSTER_MIN_SIZE,
  type PosterDocument,
  type PosterNode,
  type PosterStyle,
  posterFieldKeySchema,
} from '@marquee/protocol';
import { Button, ColorPicker, Divider, Form, Input, InputNumber, Select, Space, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MaterialPicker } from '../materials/MaterialPicker';

type Change = (id: string, patch: Partial<PosterNode>, coalesce?: string) => void;

function Color({ value, onChange, testId }: { value?: string; onChange: (hex: string) => void; testId?: string }) {
  return (
    <ColorPicker
      value={value}
      showText
      allowClear
      onChangeComplete={(c) => onChange(c.cleared ? 'transparent' : c.toHexString())}
      data-testid={testId}
    />
  );
}

/** An image node's picture from the material library: pick (or replace) one, or go back to a web address. */
function LibraryImage({
  fromLibrary,
  onPick,
  onDetach,
}: {
  fromLibrary: boolean;
  onPick: (material: Material) => void;
  onDetach: () => void;
}) {
  const { t } = useTranslation('posters');
  const [picking, setPicking] = useState(false);
  return (
    <Space wrap>
      {fromLibrary ? <Tag color="blue">{t('props.fromLibrary')}</Tag> : null}
      <Button
        size="small"
        icon={<FolderOpenOutlined />}
        onClick={() => setPicking(true)}
        data-testid="poster-prop-pick"
      >
        {fromLibrary ? t('props.replaceFromLibrary') : t('props.pickFromLibrary')}
      </Button>
      {fromLibrary ? (
        <Button size="small" type="link" onClick={onDetach} data-testid="poster-prop-detach">
          {t('props.useUrl')}
        </Button>
      ) : null}
      <MaterialPicker
        open={picking}
        kind="image"
        max={1}
        onClose={() => setPicking(false)}
        onPick={(chosen) => chosen[0] && onPick(chosen[0])}
      />
    </Space>
  );
}

/**
 * The properties of the selected node (box, style, content, field), or of the poster itself
 * (size, background) when nothing is selected. Typing coalesces into one undo step per field.
 */
export function PropertiesPanel({
  node,
  doc,
  size,
  onSize,
  onBackground,
  onChange,
}: {
  node: PosterNode | null;
  doc: PosterDocument;
  size: { width: number; height: number };
  onSize: (size: { width: number; height: number }) => void;
  onBackground: (color: string) => void;
  onChange: Change;
}) {
  const { t } = useTranslation('posters');
  if (!node) {
    return (
      <aside className="mq-poster-props" aria-label={t('props.title')}>
        <Typography.Title level={5}>{t('props.poster')}</Typography.Title>
        <Form layout="vertical" size="small">
          <Form.Item label={t('props.width')}>
            <InputNumber
              min={POSTER_MIN_SIZE}
              max={POSTER_MAX_SIZE}
              precision={0}
              value={size.width}
              onChange={(v) => v && onSize({ ...size, width: v })}
            />
          </Form.Item>
          <Form.Item label={t('props.height')}>
            <InputNumber
              min={POSTER_MIN_SIZE}
              max={POSTER_MAX_SIZE}
              precision={0}
              value={size.height}
              onChange={(v) => v && onSize({ ...size, height: v })}
            />
          </Form.Item>
          <Form.Item label={t('props.background')}>
            <Color value={doc.background} onChange={onBackground} />
          </Form.Item>
        </Form>
        <Typography.Paragraph type="secondary">{t('props.hint')}</Typography.Paragraph>
      </aside>
    );
  }
  const set = (patch: Partial<PosterNode>, coalesce?: string) => onChange(node.id, patch, coalesce);
  const style = (patch: Partial<PosterStyle>, coalesce?: string) =>
    set({ style: { ...node.style, ...patch } }, coalesce);
  const num = (key: 'x' | 'y' | 'w' | 'h' | 'rotation', min = -POSTER_MAX_SIZE) => (
    <Form.Item label={t(`props.${key}`)}>
      <InputNumber
        min={min}
        max={POSTER_MAX_SIZE * 2}
        precision={key === 'rotation' ? 1 : 0}
        value={node[key]}
        onChange={(v) => v !== null && set({ [key]: v }, key)}
        data-testid={`poster-prop-${key}`}
      />
    </Form.Item>
  );
  const canBeField = POSTER_FIELD_TYPES.includes(node.type);
  const keyError = node.field && !posterFieldKeySchema.safeParse(node.field.key).success;
  return (
    <aside className="mq-poster-props" aria-label={t('props.title')} data-testid="poster-props">
      <Typography.Title level={5}>{t(`type.${node.type}`)}</Typography.Title>
      <Form layout="vertical" size="small" disabled={node.locked}>
        <Form.Item label={t('props.name')}>
          <Input value={node.name} maxLength={60} onChange={(e) => set({ name: e.target.value }, 'name')} />
        </Form.Item>
        <div className="mq-poster-props-grid">
          {num('x')}
          {num('y')}
          {num('w', 0)}
          {num('h', 0)}
          {num('rotation', -360)}
          <Form.Item label={t('props.opacity')}>
            <InputNumber
              min={0}
              max={1}
              step={0.1}
              value={node.style.opacity ?? 1}
              onChange={(v) => v !== null && style({ opacity: v }, 'opacity')}
            />
          </Form.Item>
        </div>
        {(node.type === 'text' || node.type === 'qr') && (
          <Form.Item label={node.type === 'text' ? t('props.text') : t('props.qrContent')}>
            <Input.TextArea
              value={node.text}
              autoSize={{ minRows: 2, maxRows: 6 }}
              maxLength={2000}
              onChange={(e) => set({ text: e.target.value }, 'text')}
              data-testid="poster-prop-text"
            />
          </Form.Item>
        )}
        {node.type === 'text' && (
          <>
            <div className="mq-poster-props-grid">
              <Form.Item label={t('props.fontSize')}>
                <InputNumber
                  min={4}
                  max={2000}
                  value={node.style.fontSize ?? 32}
                  onChange={(v) => v && style({ fontSize: v }, 'fontSize')}
                  data-testid="poster-prop-fontSize"
                />
              </Form.Item>
              <Form.Item label={t('props.lineHeight')}>
                <InputNumber
                  min={0.5}
                  max={5}
                  step={0.1}
                  value={node.style.lineHeight ?? 1.2}
                  onChange={(v) => v && style({ lineHeight: v }, 'lineHeight')}
                />
              </Form.Item>
            </div>
            <Form.Item label={t('props.fontStyle')}>
              <Select
                value={node.style.fontStyle ?? 'normal'}
                onChange={(v) => style({ fontStyle: v })}
                options={(['normal', 'bold', 'italic', 'bold italic'] as const).map((v) => ({
                  value: v,
                  label: t(`fontStyle.${v.replace(' ', '_')}`),
                }))}
              />
            </Form.Item>
            <Form.Item label={t('props.align')}>
              <Select
                value={node.style.align ?? 'left'}
                onChange={(v) => style({ align: v })}
                options={(['left', 'center', 'right'] as const).map((v) => ({ value: v, label: t(`align.${v}`) }))}
              />
            </Form.Item>
            <Form.Item label={t('props.fontFamily')}>
              <Input
                value={node.style.fontFamily}
                placeholder="sans-serif"
                maxLength={100}
                onChange={(e) => style({ fontFamily: e.target.value }, 'fontFamily')}
              />
            </Form.Item>
          </>
        )}
        {node.type === 'image' && (
          <>
            <Form.Item label={t('props.library')}>
              <LibraryImage
                fromLibrary={Boolean(node.materialId)}
                onPick={(m) => set({ materialId: m.id, src: m.url, ...(node.name ? {} : { name: m.name }) })}
                onDetach={() => set({ materialId: null, src: '' })}
              />
            </Form.Item>
            {node.materialId ? null : (
              <Form.Item label={t('props.src')} extra={t('props.srcHint')}>
                <Input
                  value={node.src}
                  placeholder="https://"
                  maxLength={2000}
                  onChange={(e) => set({ src: e.target.value, materialId: null }, 'src')}
                  data-testid="poster-prop-src"
                />
              </Form.Item>
            )}
            <Form.Item label={t('props.fit')}>
              <Select
                value={node.style.fit ?? 'cover'}
                onChange={(v) => style({ fit: v })}
                options={(['cover', 'contain', 'fill'] as const).map((v) => ({ value: v, label: t(`fit.${v}`) }))}
              />
            </Form.Item>
          </>
        )}
        {node.type !== 'image' && node.type !== 'line' && (
          <Form.Item label={node.type === 'qr' ? t('props.qrDark') : t('props.fill')}>
            <Color value={node.style.fill} onChange={(c) => style({ fill: c })} />
          </Form.Item>
        )}
        {node.type === 'qr' && (
          <Form.Item label={t('props.qrLight')}>
            <Color value={node.style.background ?? '#ffffff'} onChange={(c) => style({ background: c })} />
          </Form.Item>
        )}
        {(node.type === 'rect' || node.type === 'ellipse' || node.type === 'line') && (
          <>
            <Form.Item label={t('props.stroke')}>
              <Color value={node.style.stroke} onChange={(c) => style({ stroke: c })} />
            </Form.Item>
            <Form.Item label={t('props.strokeWidth')}>
              <InputNumber
                min={0}
                max={500}
                value={node.style.strokeWidth ?? (node.type === 'line' ? 2 : 0)}
                onChange={(v) => v !== null && style({ strokeWidth: v }, 'strokeWidth')}
              />
            </Form.Item>
          </>
        )}
        {node.type === 'rect' && (
          <Form.Item label={t('props.cornerRadius')}>
            <InputNumber
              min={0}
              max={POSTER_MAX_SIZE}
              value={node.style.cornerRadius ?? 0}
              onChange={(v) => v !== null && style({ cornerRadius: v }, 'cornerRadius')}
            />
          </Form.Item>
        )}
      </Form>
      {canBeField && (
        <>
          <Divider />
          <Form layout="vertical" size="small">
            <Form.Item label={t('field.editable')} extra={t('field.hint')}>
              <Switch
                checked={Boolean(node.field)}
                onChange={(on) =>
                  set({
                    field: on
                      ? { key: `field_${node.id.slice(-4)}`, label: node.name || t(`type.${node.type}`) }
                      : null,
                  })
                }
                data-testid="poster-prop-field"
              />
            </Form.Item>
            {node.field && (
              <>
                <Form.Item label={t('field.label')}>
                  <Input
                    value={node.field.label}
                    maxLength={40}
                    onChange={(e) =>
                      set({ field: { key: node.field?.key ?? '', label: e.target.value } }, 'fieldLabel')
                    }
                    data-testid="poster-prop-field-label"
                  />
                </Form.Item>
                <Form.Item
                  label={t('field.key')}
                  validateStatus={keyError ? 'error' : undefined}
                  help={keyError ? t('posterFieldKey', { ns: 'validation' }) : undefined}
                >
                  <Input
                    value={node.field.key}
                    maxLength={40}
                    onChange={(e) =>
                      set({ field: { label: node.field?.label ?? '', key: e.target.value } }, 'fieldKey')
                    }
                    data-testid="poster-prop-field-key"
                  />
                </Form.Item>
              </>
            )}
          </Form>
        </>
      )}
    </aside>
  );
}
