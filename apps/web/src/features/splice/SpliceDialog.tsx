import {
  SPLICE_MAX_COLS,
  SPLICE_MAX_ROWS,
  SPLICE_ROTATIONS,
  type SpliceDetail,
  spliceNameSchema,
} from '@marquee/protocol';
import { Alert, Form, Input, InputNumber, Select, Skeleton, Space, Switch, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCallQuery } from '../../api/queries';
import { FormDialog } from '../../components/FormDialog';
import { requiredRule, zodRule } from '../../components/zodRule';
import { type GridTile, TileGrid, tilesWithin } from './TileGrid';

interface Values {
  name: string;
  rows: number;
  cols: number;
  scaling: boolean;
  rotation: 0 | 90 | 180 | 270;
  tiles: GridTile[];
}

const DEFAULTS: Partial<Values> = { rows: 2, cols: 2, scaling: false, rotation: 0, tiles: [] };

function valuesOf(detail: SpliceDetail): Partial<Values> {
  return {
    name: detail.name,
    rows: detail.rows,
    cols: detail.cols,
    scaling: detail.scaling,
    rotation: detail.rotation as Values['rotation'],
    tiles: detail.tiles.map((t) => ({ row: t.row, col: t.col, deviceId: t.deviceId, deviceName: t.deviceName })),
  };
}

/**
 * Adds or edits a splicing screen: its name, rows and columns (up to 8 x 8), tile scaling and
 * screen rotation (only with tile scaling, spec section 9), and the device of each tile in
 * the grid editor.
 */
export function SpliceDialog({
  open,
  editingId,
  onClose,
}: {
  open: boolean;
  /** The wall to edit; null adds one. */
  editingId: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['splice', 'validation']);
  const [form] = Form.useForm<Values>();
  const rows = Form.useWatch('rows', form) ?? 2;
  const cols = Form.useWatch('cols', form) ?? 2;
  const scaling = Form.useWatch('scaling', form) ?? false;
  const detail = useCallQuery(
    'spliceDetail',
    { id: editingId as string },
    {
      enabled: open && editingId !== null,
      staleTime: 0,
      gcTime: 0,
    },
  );
  const isEdit = editingId !== null;
  // The wall's values arrive after the dialog opened (FormDialog fills on opening).
  useEffect(() => {
    if (open && detail.data) form.setFieldsValue(valuesOf(detail.data) as Values);
  }, [open, detail.data, form]);

  const submit = async (v: Values) => {
    const safeRows = v.rows || 1;
    const safeCols = v.cols || 1;
    const fields = {
      name: v.name.trim(),
      rows: safeRows,
      cols: safeCols,
      scaling: v.scaling,
      rotation: v.scaling ? v.rotation : 0,
      tiles: tilesWithin(v.tiles ?? [], safeRows, safeCols).map(({ row, col, deviceId }) => ({ row, col, deviceId })),
    } as const;
    if (editingId) await call('spliceUpdate', { id: editingId, ...fields });
    else await call('spliceCreate', fields);
  };

  const required = requiredRule(t);
  const loading = isEdit && !detail.data;
  return (
    <FormDialog<Values>
      open={open}
      form={form}
      title={t(isEdit ? 'dialog.editTitle' : 'dialog.addTitle')}
      onClose={onClose}
      submit={submit}
      success={t(isEdit ? 'dialog.updated' : 'dialog.added')}
      invalidates={['splice']}
      initialValues={DEFAULTS}
      okText={t('dialog.save')}
      cancelText={t('dialog.cancel')}
      submitTestId="splice-dialog-submit"
      testId="splice-dialog"
      width={760}
    >
      {loading ? (
        <Skeleton active />
      ) : (
        <>
          <Form.Item name="name" label={t('field.name')} rules={[required, zodRule(spliceNameSchema, t)]}>
            <Input maxLength={50} data-testid="splice-name" />
          </Form.Item>
          <Space size="large" wrap align="start">
            <Form.Item name="rows" label={t('field.rows')} rules={[{ required: true, message: required.message }]}>
              <InputNumber min={1} max={SPLICE_MAX_ROWS} precision={0} data-testid="splice-rows" />
            </Form.Item>
            <Form.Item name="cols" label={t('field.cols')} rules={[{ required: true, message: required.message }]}>
              <InputNumber min={1} max={SPLICE_MAX_COLS} precision={0} data-testid="splice-cols" />
            </Form.Item>
            <Form.Item name="scaling" label={t('field.scaling')} valuePropName="checked">
              <Switch
                data-testid="splice-scaling"
                onChange={(on) => {
                  if (!on) form.setFieldValue('rotation', 0);
                }}
              />
            </Form.Item>
            <Form.Item
              name="rotation"
              label={t('field.rotation')}
              dependencies={['scaling']}
              extra={scaling ? undefined : t('field.rotationNeedsScaling')}
              rules={[
                ({ getFieldValue }) => ({
                  validator: (_r, value) =>
                    value && !getFieldValue('scaling')
                      ? Promise.reject(new Error(t('field.rotationNeedsScaling')))
                      : Promise.resolve(),
                }),
              ]}
            >
              <Select
                style={{ width: 120 }}
                disabled={!scaling}
                options={SPLICE_ROTATIONS.map((r) => ({ value: r, label: t('rotation', { deg: r }) }))}
                data-testid="splice-rotation"
              />
            </Form.Item>
          </Space>
          <Form.Item name="tiles" label={t('field.tiles')}>
            <TileGrid rows={Math.max(1, rows)} cols={Math.max(1, cols)} />
          </Form.Item>
          <Alert type="info" showIcon title={t('dialog.oneTarget')} />
          <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
            {t('dialog.oneDevice')}
          </Typography.Paragraph>
        </>
      )}
    </FormDialog>
  );
}
