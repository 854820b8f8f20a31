import {
  emptyPosterDocument,
  POSTER_MAX_SIZE,
  POSTER_MIN_SIZE,
  posterNameSchema,
  posterSizeSchema,
} from '@marquee/protocol';
import { Form, Input, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { call } from '../../api/client';
import { FormDialog } from '../../components/FormDialog';
import { requiredRule, zodRule } from '../../components/zodRule';

interface Values {
  name: string;
  preset: string;
  width: number;
  height: number;
}

/** Common poster sizes (px): portrait and landscape screens, A4 at 300 dpi, a square post. */
const PRESETS: Record<string, [number, number]> = {
  portrait: [1080, 1920],
  landscape: [1920, 1080],
  a4: [2480, 3508],
  square: [1080, 1080],
};

/** Creates an empty template of a chosen size, then opens it in the editor. */
export function NewPosterDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(['posters', 'validation']);
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const required = requiredRule(t);
  return (
    <FormDialog<Values>
      open={open}
      form={form}
      title={t('create.title')}
      onClose={onClose}
      initialValues={{ preset: 'portrait', width: 1080, height: 1920 }}
      submit={async (v) => {
        const res = await call('posterTemplateSave', {
          name: v.name,
          width: v.width,
          height: v.height,
          document: emptyPosterDocument(),
        });
        navigate(`/poster/editor?id=${res.id}`);
      }}
      success={t('create.done')}
      invalidates={['posters']}
      okText={t('create.ok')}
      cancelText={t('create.cancel')}
      submitTestId="poster-create-submit"
      testId="poster-create"
    >
      <Form.Item name="name" label={t('create.name')} rules={[required, zodRule(posterNameSchema, t)]}>
        <Input maxLength={50} data-testid="poster-create-name" />
      </Form.Item>
      <Form.Item name="preset" label={t('create.preset')}>
        <Select
          onChange={(p: string) => {
            const size = PRESETS[p];
            if (size) form.setFieldsValue({ width: size[0], height: size[1] });
          }}
          options={[...Object.keys(PRESETS), 'custom'].map((p) => ({ value: p, label: t(`preset.${p}`) }))}
        />
      </Form.Item>
      {(['width', 'height'] as const).map((side) => (
        <Form.Item
          key={side}
          name={side}
          label={t(`props.${side}`)}
          rules={[{ required: true, message: t('required', { ns: 'validation' }) }, zodRule(posterSizeSchema, t)]}
        >
          <InputNumber
            min={POSTER_MIN_SIZE}
            max={POSTER_MAX_SIZE}
            precision={0}
            onChange={() => form.setFieldValue('preset', 'custom')}
            data-testid={`poster-create-${side}`}
          />
        </Form.Item>
      ))}
    </FormDialog>
  );
}
