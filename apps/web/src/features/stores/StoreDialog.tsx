import { AimOutlined } from '@ant-design/icons';
import { type GeoPoint, phoneSchema, STORE_NAME_MAX, type Store } from '@marquee/protocol';
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { call } from '../../api/client';
import { FormDialog } from '../../components/FormDialog';
import { DeptPicker } from '../../components/pickers/DeptPicker';
import { requiredRule, zodRule } from '../../components/zodRule';
import { LocationFields, type LocationValues, locationValues, useLocationForm } from './LocationFields';
import { formatPoint, precisionText } from './texts';

interface Values extends LocationValues {
  name: string;
  deptId?: string;
  contactName?: string;
  contactPhone?: string;
}

const nameRule = z.string().max(STORE_NAME_MAX);
const contactRule = z.string().max(30);

/**
 * Adds or edits a store: name, address and POI, its region (picked, or read from the
 * address), the point (geocoded from the address unless the user enters both coordinates),
 * department and contact. "Locate" shows what geocoding finds before saving, and says
 * whether it is approximate; the save says so too.
 */
export function StoreDialog({ open, editing, onClose }: { open: boolean; editing: Store | null; onClose: () => void }) {
  const { t } = useTranslation(['stores', 'validation']);
  const [form] = Form.useForm<Values>();
  const location = useLocationForm(form, t);
  const [preview, setPreview] = useState<GeoPoint | null>(null);
  const [locating, setLocating] = useState(false);

  const submit = async (v: Values) => {
    const fields = {
      name: v.name.trim(),
      ...location.request(v),
      deptId: v.deptId || undefined,
      contactName: v.contactName?.trim() ?? '',
      contactPhone: v.contactPhone?.trim() ?? '',
    };
    const answer = editing ? await call('storeUpdate', { id: editing.id, ...fields }) : await call('storeAdd', fields);
    location.warn(answer);
    setPreview(null);
  };

  const locate = async () => {
    const address = String(form.getFieldValue('address') ?? '').trim();
    if (!address) {
      void form.validateFields(['address']);
      return;
    }
    setLocating(true);
    try {
      setPreview(await call('geoGeocode', { address, regionCode: form.getFieldValue('regionCode') || undefined }));
    } catch {
      setPreview(null);
    } finally {
      setLocating(false);
    }
  };

  const required = requiredRule(t);
  return (
    <FormDialog<Values>
      open={open}
      form={form}
      title={t(editing ? 'dialog.editTitle' : 'dialog.addTitle')}
      onClose={() => {
        setPreview(null);
        onClose();
      }}
      submit={submit}
      success={t(editing ? 'toast.updated' : 'toast.added')}
      invalidates={['stores', 'geo', 'devices']}
      values={
        editing
          ? {
              name: editing.name,
              ...locationValues(editing),
              deptId: editing.deptId ?? undefined,
              contactName: editing.contactName,
              contactPhone: editing.contactPhone,
            }
          : undefined
      }
      canSubmit={() => !location.oneCoordinate}
      okText={t('dialog.save')}
      cancelText={t('dialog.cancel')}
      submitTestId="store-dialog-submit"
      testId="store-dialog"
      className="mq-form-grid"
      width={720}
    >
      <Form.Item name="name" label={t('field.name')} rules={[required, zodRule(nameRule, t)]}>
        <Input data-testid="store-dialog-name" />
      </Form.Item>
      <Form.Item name="deptId" label={t('field.dept')} extra={t('dialog.deptHint')}>
        <DeptPicker allowClear testId="store-dialog-dept" />
      </Form.Item>
      <LocationFields
        t={t}
        testId="store-dialog"
        oneCoordinate={location.oneCoordinate}
        address={
          <Input
            data-testid="store-dialog-address"
            onChange={() => setPreview(null)}
            addonAfter={
              <Button
                type="text"
                size="small"
                icon={<AimOutlined />}
                loading={locating}
                onClick={() => void locate()}
                data-testid="store-dialog-locate"
              >
                {t('dialog.locate')}
              </Button>
            }
          />
        }
        spanClassName="mq-span"
        coordinateTestIds
        step={0.000001}
      >
        {preview ? (
          <Alert
            className="mq-span"
            style={{ marginBottom: 16 }}
            type={preview.approximate ? 'warning' : 'success'}
            showIcon
            data-testid="store-dialog-preview"
            message={
              preview.approximate
                ? t('dialog.previewApproximate', {
                    point: formatPoint(preview.latitude, preview.longitude),
                    precision: precisionText(t, preview.precision),
                  })
                : t('dialog.previewExact', { point: formatPoint(preview.latitude, preview.longitude) })
            }
            description={preview.regionName || undefined}
          />
        ) : null}
      </LocationFields>
      <Form.Item name="contactName" label={t('field.contactName')} rules={[zodRule(contactRule, t)]}>
        <Input data-testid="store-dialog-contact" />
      </Form.Item>
      <Form.Item name="contactPhone" label={t('field.contactPhone')} rules={[zodRule(phoneSchema, t)]}>
        <Input data-testid="store-dialog-phone" />
      </Form.Item>
    </FormDialog>
  );
}
