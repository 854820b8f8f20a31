import type { DeviceRow } from '@marquee/protocol';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCallQuery } from '../../api/queries';
import { FormDialog } from '../../components/FormDialog';

interface Values {
  layoutId?: string | null;
}

/**
 * The layout a screen plays (spec Device 'layout', issue 12): one of the layouts the caller
 * may see, or none (the screen then shows 'nothing scheduled'). The screen fetches its new
 * content at once (the server sends it syncContent).
 */
export function AssignLayoutDialog({ device, onClose }: { device: DeviceRow | null; onClose: () => void }) {
  const { t } = useTranslation('player');
  const layouts = useCallQuery('templatePage', { page: 1, size: 500 }, { enabled: device !== null });
  const submit = async (v: Values) => {
    if (!device) return;
    await call('deviceAssignLayout', { ids: [device.id], layoutId: v.layoutId ?? null });
  };
  return (
    <FormDialog<Values>
      open={device !== null}
      title={t('assign.title', { name: device?.name ?? '' })}
      onClose={onClose}
      submit={submit}
      success={t('assign.done')}
      invalidates={['devices']}
      values={{ layoutId: null }}
      okText={t('assign.ok')}
      cancelText={t('assign.cancel')}
      submitTestId="device-assign-layout-submit"
      testId="device-assign-layout-dialog"
    >
      <Form.Item name="layoutId" label={t('assign.layout')} extra={t('assign.hint')}>
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          loading={layouts.isLoading}
          placeholder={t('assign.none')}
          notFoundContent={t('assign.empty')}
          options={(layouts.data?.data ?? []).map((l) => ({ value: l.id, label: l.name }))}
          data-testid="device-assign-layout-select"
        />
      </Form.Item>
    </FormDialog>
  );
}
