import { FileImageOutlined } from '@ant-design/icons';
import { watermarkPlacement } from '@marquee/layout';
import {
  type Material,
  WATERMARK_POSITIONS,
  WATERMARK_TEXT_MAX,
  type Watermark,
  type WatermarkPosition,
  type WatermarkSetting,
} from '@marquee/protocol';
import { Alert, Button, Form, Input, Radio, Slider, Space, Typography } from 'antd';
import { type CSSProperties, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCallQuery } from '../../api/queries';
import { FormDialog } from '../../components/FormDialog';
import { MaterialPicker } from '../materials/MaterialPicker';
import './watermark.css';

/** Whose watermark the dialog sets: some devices (the first one's shown), or one group. */
export type WatermarkTarget =
  | { kind: 'devices'; ids: string[]; label: string }
  | { kind: 'group'; id: string; label: string };

/** `follow`: the devices follow their groups (no setting of their own); `none`: no watermark; `show`: this one. */
type Mode = 'follow' | 'none' | 'show';

interface Values {
  mode: Mode;
  kind: Watermark['kind'];
  text: string;
  position: WatermarkPosition;
  opacity: number;
  sizePct: number;
}

const DEFAULTS: Values = { mode: 'show', kind: 'text', text: '', position: 'bottomRight', opacity: 40, sizePct: 6 };
const PREVIEW_HEIGHT = 180;

/**
 * The watermark of devices or of a device group (docs/device-protocol.md 2.7.5): none, a text
 * or a picture of the library, at a corner or the centre, with its opacity and size, and a
 * live preview of a 16:9 screen; a device may instead follow its group. Saving tells the
 * screens to fetch their content now.
 */
export function WatermarkDialog({ target, onClose }: { target: WatermarkTarget | null; onClose: () => void }) {
  const { t } = useTranslation(['watermark', 'validation']);
  const named = useRef(target);
  if (target) named.current = target;
  const [form] = Form.useForm<Values>();
  const [picked, setPicked] = useState<{ id: string; name: string; url: string } | null>(null);
  const [picking, setPicking] = useState(false);
  const one = target?.kind === 'devices' && target.ids.length === 1 ? target.ids[0] : null;
  const deviceInfo = useCallQuery('deviceWatermarkInfo', { deviceId: one ?? '' }, { enabled: one !== null });
  const groupInfo = useCallQuery(
    'deviceGroupWatermarkInfo',
    { groupId: target?.kind === 'group' ? target.id : '' },
    { enabled: target?.kind === 'group' },
  );
  const own = target?.kind === 'group' ? groupInfo.data?.own : deviceInfo.data?.own;
  const loading = (one !== null && deviceInfo.isPending) || (target?.kind === 'group' && groupInfo.isPending);
  const values = useRef<Partial<Values> | undefined>(undefined);
  // The current setting once it is read (a new target starts from the defaults, a device with none follows its group).
  const current: Partial<Values> | undefined = loading
    ? undefined
    : own?.enabled && own.watermark
      ? { mode: 'show', ...own.watermark }
      : own
        ? { mode: 'none' }
        : { mode: target?.kind === 'devices' ? 'follow' : 'none' };
  values.current = current;
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const key = target ? `${target.kind}:${target.kind === 'group' ? target.id : target.ids.join(',')}` : null;
  if (key && !loading && loadedFor !== key) {
    setLoadedFor(key);
    setPicked(
      own?.enabled && own.watermark?.materialId
        ? { id: own.watermark.materialId, name: own.materialName ?? '', url: own.materialUrl ?? '' }
        : null,
    );
    form.setFieldsValue({ ...DEFAULTS, ...current });
  }

  const mode = Form.useWatch('mode', form) ?? DEFAULTS.mode;
  const kind = Form.useWatch('kind', form) ?? DEFAULTS.kind;
  const text = Form.useWatch('text', form) ?? '';
  const position = Form.useWatch('position', form) ?? DEFAULTS.position;
  const opacity = Form.useWatch('opacity', form) ?? DEFAULTS.opacity;
  const sizePct = Form.useWatch('sizePct', form) ?? DEFAULTS.sizePct;

  const settingOf = (v: Values): WatermarkSetting | null => {
    if (v.mode === 'follow') return null;
    if (v.mode === 'none') return { enabled: false };
    return {
      enabled: true,
      watermark: {
        kind: v.kind,
        text: v.kind === 'text' ? v.text.trim() : '',
        materialId: v.kind === 'image' ? (picked?.id ?? null) : null,
        position: v.position,
        opacity: v.opacity,
        sizePct: v.sizePct,
      },
    };
  };

  const markStyle: CSSProperties = {
    ...watermarkPlacement(position, `${PREVIEW_HEIGHT * 0.02}px`),
    opacity: opacity / 100,
  };
  return (
    <FormDialog<Values>
      open={target !== null}
      form={form}
      title={t('title', { name: named.current?.label ?? '' })}
      onClose={() => {
        setLoadedFor(null);
        onClose();
      }}
      width={620}
      initialValues={DEFAULTS}
      canSubmit={(v) => v.mode !== 'show' || v.kind !== 'image' || picked !== null}
      submit={(v) =>
        target?.kind === 'group'
          ? call('deviceGroupWatermarkSave', { groupId: target.id, setting: settingOf(v) })
          : call('deviceWatermarkSave', { ids: target?.ids ?? [], setting: settingOf(v) })
      }
      success={t('saved')}
      invalidates={['watermark']}
      okText={t('save')}
      cancelText={t('cancel')}
      testId="watermark-form"
      submitTestId="watermark-submit"
    >
      {target?.kind === 'devices' && target.ids.length > 1 && (
        <Alert type="info" showIcon message={t('many', { count: target.ids.length })} style={{ marginBottom: 12 }} />
      )}
      {target?.kind === 'devices' && deviceInfo.data?.groupName && (
        <Typography.Paragraph type="secondary" data-testid="watermark-group-note">
          {deviceInfo.data.group?.enabled
            ? t('groupHas', { group: deviceInfo.data.groupName })
            : t('groupHasNone', { group: deviceInfo.data.groupName })}
        </Typography.Paragraph>
      )}
      <Form.Item name="mode" label={t('mode')}>
        <Radio.Group data-testid="watermark-mode">
          {target?.kind === 'devices' && <Radio.Button value="follow">{t('mode.follow')}</Radio.Button>}
          <Radio.Button value="none">{t('mode.none')}</Radio.Button>
          <Radio.Button value="show">{t('mode.show')}</Radio.Button>
        </Radio.Group>
      </Form.Item>
      {mode === 'show' && (
        <>
          <Form.Item name="kind" label={t('kind')}>
            <Radio.Group data-testid="watermark-kind">
              <Radio value="text">{t('kind.text')}</Radio>
              <Radio value="image">{t('kind.image')}</Radio>
            </Radio.Group>
          </Form.Item>
          {kind === 'text' ? (
            <Form.Item
              name="text"
              label={t('text')}
              rules={[{ required: true, whitespace: true, message: t('validation:required') }]}
            >
              <Input maxLength={WATERMARK_TEXT_MAX} showCount data-testid="watermark-text" />
            </Form.Item>
          ) : (
            <Form.Item label={t('image')} required help={picked ? undefined : t('imageHint')}>
              <Space>
                <Button icon={<FileImageOutlined />} onClick={() => setPicking(true)} data-testid="watermark-pick">
                  {picked ? t('imageChange') : t('imagePick')}
                </Button>
                {picked && <Typography.Text data-testid="watermark-image-name">{picked.name}</Typography.Text>}
              </Space>
            </Form.Item>
          )}
          <Form.Item name="position" label={t('position')}>
            <Radio.Group data-testid="watermark-position">
              {WATERMARK_POSITIONS.map((p) => (
                <Radio.Button key={p} value={p}>
                  {t(`position.${p}`)}
                </Radio.Button>
              ))}
            </Radio.Group>
          </Form.Item>
          <Space size="large" style={{ display: 'flex' }}>
            <Form.Item name="opacity" label={t('opacity', { value: opacity })} style={{ width: 240 }}>
              <Slider min={5} max={100} ariaLabelForHandle={t('opacityLabel')} data-testid="watermark-opacity" />
            </Form.Item>
            <Form.Item name="sizePct" label={t('size', { value: sizePct })} style={{ width: 240 }}>
              <Slider min={2} max={30} ariaLabelForHandle={t('sizeLabel')} data-testid="watermark-size" />
            </Form.Item>
          </Space>
          <div className="mq-watermark-preview" style={{ height: PREVIEW_HEIGHT }} data-testid="watermark-preview">
            <span className="mq-watermark-screen">{t('previewScreen')}</span>
            {kind === 'text' && text.trim() && (
              <span className="mq-watermark-mark" style={{ ...markStyle, fontSize: (PREVIEW_HEIGHT * sizePct) / 100 }}>
                {text.trim()}
              </span>
            )}
            {kind === 'image' && picked?.url && (
              <img
                className="mq-watermark-mark"
                src={picked.url}
                alt=""
                style={{ ...markStyle, height: (PREVIEW_HEIGHT * sizePct) / 100 }}
              />
            )}
          </div>
        </>
      )}
      {mode === 'follow' && <Typography.Paragraph type="secondary">{t('followHint')}</Typography.Paragraph>}
      <MaterialPicker
        open={picking}
        kind="image"
        max={1}
        onClose={() => setPicking(false)}
        onPick={(list: Material[]) => {
          const m = list[0];
          if (m) setPicked({ id: m.id, name: m.name, url: m.thumbUrl ?? m.url });
          setPicking(false);
        }}
      />
    </FormDialog>
  );
}
