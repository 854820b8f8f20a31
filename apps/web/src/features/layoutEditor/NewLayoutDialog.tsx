import { LAYOUT_LIMITS } from '@marquee/layout';
import { type ButtonProps, Form, Input, InputNumber, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';

export interface NewLayoutValues {
  name: string;
  width: number;
  height: number;
}

/** Common screen sizes (landscape and portrait) offered for a new layout. */
const PRESETS = [
  [1920, 1080],
  [1080, 1920],
  [3840, 2160],
  [2160, 3840],
  [1280, 720],
  [1024, 768],
] as const;

/** The name and size of a new layout (spec section 5: width and height 48 to 11520 px). */
export function NewLayoutDialog({
  open,
  onCancel,
  onCreate,
}: {
  open: boolean;
  onCancel: () => void;
  onCreate: (values: NewLayoutValues) => void;
}) {
  const { t } = useTranslation('layoutEditor');
  const [form] = Form.useForm<NewLayoutValues>();
  const sizeRule = {
    type: 'integer' as const,
    min: LAYOUT_LIMITS.minSize,
    max: LAYOUT_LIMITS.maxSize,
    message: t('new.sizeRange', { min: LAYOUT_LIMITS.minSize, max: LAYOUT_LIMITS.maxSize }),
  };
  return (
    <Modal
      open={open}
      title={t('new.title')}
      okText={t('new.create')}
      cancelText={t('cancel')}
      maskClosable={false}
      destroyOnHidden
      onCancel={onCancel}
      onOk={() => form.submit()}
      okButtonProps={{ 'data-testid': 'le-new-ok' } as ButtonProps}
    >
      <Form<NewLayoutValues>
        form={form}
        layout="vertical"
        initialValues={{ name: '', width: 1920, height: 1080 }}
        onFinish={(values) => onCreate({ ...values, name: values.name.trim() })}
        data-testid="le-new-form"
      >
        <Form.Item
          name="name"
          label={t('name.label')}
          rules={[
            { required: true, whitespace: true, message: t('save.nameRequired') },
            { max: 100, message: t('new.nameLength') },
          ]}
        >
          <Input maxLength={100} placeholder={t('name.placeholder')} data-testid="le-new-name" autoFocus />
        </Form.Item>
        <Form.Item label={t('new.preset')}>
          <Select
            placeholder={t('new.presetPlaceholder')}
            aria-label={t('new.preset')}
            options={PRESETS.map(([w, h]) => ({ value: `${w}x${h}`, label: `${w} × ${h}` }))}
            onChange={(v: string) => {
              const [w, h] = v.split('x').map(Number);
              form.setFieldsValue({ width: w, height: h });
            }}
            data-testid="le-new-preset"
          />
        </Form.Item>
        <div className="mq-le-grid2">
          {(['width', 'height'] as const).map((name) => (
            <Form.Item
              key={name}
              name={name}
              label={t(`new.${name}`)}
              rules={[{ required: true, message: t('new.sizeRequired') }, sizeRule]}
            >
              <InputNumber style={{ width: '100%' }} precision={0} suffix="px" data-testid={`le-new-${name}`} />
            </Form.Item>
          ))}
        </div>
      </Form>
    </Modal>
  );
}
