import type { Store } from '@marquee/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Form, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { FormDialog } from '../../components/FormDialog';

interface Values {
  deviceIds: string[];
}

/**
 * Places devices in a store (searched by name or number among the devices the user sees).
 * A device stands in one store: placing it here takes it out of its previous one, and it
 * takes the store's address and point.
 */
export function AssignDevicesDialog({ store, onClose }: { store: Store | null; onClose: () => void }) {
  const { t } = useTranslation('stores');
  const queryClient = useQueryClient();
  const [keyword, setKeyword] = useState('');
  const devices = useQuery({
    queryKey: ['stores', 'deviceOptions', keyword],
    queryFn: ({ signal }) => call('deviceList', { page: 1, size: 50, keyword: keyword || undefined }, { signal }),
    enabled: store !== null,
  });
  return (
    <FormDialog<Values>
      open={store !== null}
      title={t('assign.title', { name: store?.name ?? '' })}
      onClose={onClose}
      submit={(v) => call('storeAssignDevices', { storeId: store?.id ?? null, deviceIds: v.deviceIds })}
      success={t('assign.done')}
      invalidate={['stores']}
      onDone={() => {
        // The devices moved: the device map counts them in their new region.
        void queryClient.invalidateQueries({ queryKey: ['deviceMap'] });
        onClose();
      }}
      okText={t('dialog.save')}
      cancelText={t('dialog.cancel')}
      submitTestId="store-assign-submit"
      testId="store-assign-dialog"
    >
      <Form.Item
        name="deviceIds"
        label={t('assign.devices')}
        extra={t('assign.hint')}
        rules={[{ required: true, message: t('assign.required') }]}
      >
        <Select
          mode="multiple"
          showSearch={{ filterOption: false, onSearch: (v) => setKeyword(v.trim()) }}
          loading={devices.isFetching}
          notFoundContent={devices.isFetching ? undefined : t('assign.noDevices')}
          options={(devices.data?.data ?? []).map((d) => ({
            value: d.id,
            label: d.number ? `${d.name} (${d.number})` : d.name,
          }))}
          placeholder={t('assign.placeholder')}
          data-testid="store-assign-devices"
        />
      </Form.Item>
    </FormDialog>
  );
}
