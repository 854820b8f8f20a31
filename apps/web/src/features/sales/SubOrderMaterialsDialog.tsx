import { AD_MAX_MATERIALS, type Endpoints, Perm, type Req, type SubOrder } from '@marquee/protocol';
import { Alert, Form, Input, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCallQuery } from '../../api/queries';
import { FormDialog } from '../../components/FormDialog';
import { useCan } from '../../session/useCan';
import { AdMaterialsField, type PickedMaterial } from '../ads/AdMaterialsField';

interface Values {
  name?: string;
  content: 'materials' | 'layout';
  materials?: PickedMaterial[];
  layoutId?: string;
}

/**
 * A sub-order's content (sales.orderMaterials): 1 to 20 materials of the library (the ads'
 * picker) or a layout. It makes (or, after a failed review, edits) the line's ad, which goes
 * to review.
 */
export function SubOrderMaterialsDialog({
  orderId,
  sub,
  onClose,
}: {
  orderId: string;
  sub: SubOrder | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['sales', 'ads']);
  const can = useCan();
  const [form] = Form.useForm<Values>();
  const content = Form.useWatch('content', form) ?? 'materials';
  const layouts = useCallQuery('templatePage', { page: 1, size: 500 } as Req<Endpoints['templatePage']>, {
    enabled: Boolean(sub) && can(Perm.template),
  });
  const again = sub?.adId != null;
  return (
    <FormDialog<Values>
      open={Boolean(sub)}
      form={form}
      title={t('order.materialsTitle', { no: sub?.subNo ?? '' })}
      onClose={onClose}
      okText={t('order.materialsSubmit')}
      cancelText={t('order.back')}
      success={t('order.materialsDone')}
      invalidates={['sales', 'ads']}
      initialValues={{ content: 'materials', materials: [], name: sub?.adName ?? undefined }}
      testId="sales-materials-form"
      submitTestId="sales-materials-submit"
      submit={(v) =>
        call('salesOrderMaterials', {
          id: orderId,
          subOrderId: sub?.id ?? '',
          ...(v.name ? { name: v.name } : {}),
          materialIds: v.content === 'materials' ? (v.materials ?? []).map((m) => m.id) : [],
          layoutId: v.content === 'layout' ? (v.layoutId ?? null) : null,
        })
      }
    >
      {again ? <Alert type="warning" showIcon title={t('order.materialsAgain')} style={{ marginBottom: 12 }} /> : null}
      <Form.Item name="name" label={t('order.adName')}>
        <Input maxLength={50} placeholder={sub?.subNo} data-testid="sales-materials-name" />
      </Form.Item>
      <Form.Item name="content" label={t('order.content')}>
        <Radio.Group
          options={[
            { value: 'materials', label: t('order.contentMaterials') },
            { value: 'layout', label: t('order.contentLayout') },
          ]}
        />
      </Form.Item>
      {content === 'materials' ? (
        <Form.Item
          name="materials"
          label={t('order.materials', { max: AD_MAX_MATERIALS })}
          rules={[
            {
              validator: async (_r, v: PickedMaterial[] | undefined) => {
                if (!v || v.length === 0) throw new Error(t('order.materialsRequired'));
                if (v.length > AD_MAX_MATERIALS)
                  throw new Error(t('order.materialsTooMany', { max: AD_MAX_MATERIALS }));
              },
            },
          ]}
        >
          <AdMaterialsField />
        </Form.Item>
      ) : (
        <Form.Item
          name="layoutId"
          label={t('order.layout')}
          rules={[{ required: true, message: t('order.layoutRequired') }]}
        >
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            loading={layouts.isFetching}
            options={(layouts.data?.data ?? []).map((l) => ({ value: l.id, label: l.name }))}
            data-testid="sales-materials-layout"
          />
        </Form.Item>
      )}
    </FormDialog>
  );
}
