import {
  DSP_TIMEOUT_DEFAULT_MS,
  DSP_TIMEOUT_MAX_MS,
  DSP_TIMEOUT_MIN_MS,
  dspSaveSchema,
  formatTime,
  Perm,
  RTB_NAME_MAX,
  type RtbDsp,
} from '@marquee/protocol';
import { Card, Form, Input, InputNumber, Result, Space, Switch, Table, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { AddButton } from '../../components/AddButton';
import { ConfirmAction } from '../../components/ConfirmAction';
import { FormDialog } from '../../components/FormDialog';
import { maxLengthRule, requiredRule, zodRule } from '../../components/zodRule';
import { useCan } from '../../session/useCan';

interface DspValues {
  name: string;
  endpoint: string;
  seat: string;
  timeoutMs: number | null;
  enabled: boolean;
}

/**
 * /operate/slot?tab=dsps: the external DSPs the slots' turns are offered to (rtb.dspList):
 * name, endpoint, seat, tmax, enabled, and the last 24 hours' requests, bids, timeouts,
 * malformed answers and wins. Managers (salesManage) add, edit, switch and delete one (after a
 * confirmation); the others read.
 */
export function DspTab({ header }: { header?: ReactNode }) {
  const { t, i18n } = useTranslation('rtb');
  const can = useCan();
  const manage = can(Perm.salesManage);
  const list = useCallQuery('rtbDspList', {});
  const [dialog, setDialog] = useState<{ editing: RtbDsp | null } | null>(null);
  const remove = useCallMutation('rtbDspDelete', { success: t('dsp.deleted') });
  const toggle = useCallMutation('rtbDspSave', {
    success: (d) => (d.enabled ? t('dsp.enabledToast', { name: d.name }) : t('dsp.disabledToast', { name: d.name })),
  });
  const num = (v: number) => v.toLocaleString(i18n.language);

  return (
    <div className="mq-view" data-testid="rtb-dsps-page">
      {header}
      <Card
        size="small"
        className="mq-list-card"
        title={t('dsp.title')}
        extra={
          manage ? (
            <AddButton
              label={t('dsp.add')}
              notForMonitor
              onClick={() => setDialog({ editing: null })}
              testId="rtb-dsp-add"
            />
          ) : undefined
        }
      >
        <Typography.Paragraph type="secondary">{t('dsp.hint')}</Typography.Paragraph>
        {list.isError ? (
          <Result status="warning" title={t('loadFailed')} />
        ) : (
          <Table
            rowKey="id"
            size="middle"
            loading={list.isPending}
            pagination={false}
            dataSource={list.data?.data ?? []}
            locale={{ emptyText: manage ? t('dsp.emptyManage') : t('dsp.empty') }}
            scroll={{ x: 1100 }}
            onRow={(d) => ({ 'data-testid': `rtb-dsp-row-${d.id}` }) as object}
            columns={[
              { key: 'name', dataIndex: 'name', title: t('dsp.name'), width: 150, ellipsis: true, fixed: 'left' },
              { key: 'endpoint', dataIndex: 'endpoint', title: t('dsp.endpoint'), ellipsis: true },
              {
                key: 'seat',
                dataIndex: 'seat',
                title: t('dsp.seat'),
                width: 110,
                render: (v: string) => v || '-',
              },
              {
                key: 'timeoutMs',
                dataIndex: 'timeoutMs',
                title: t('dsp.timeout'),
                width: 90,
                align: 'right',
                render: (v: number) => t('bid.msValue', { ms: v }),
              },
              {
                key: 'enabled',
                dataIndex: 'enabled',
                title: t('dsp.enabled'),
                width: 90,
                render: (v: boolean, d) => (
                  <Switch
                    size="small"
                    checked={v}
                    disabled={!manage}
                    loading={toggle.isPending && toggle.variables?.id === d.id}
                    aria-label={t('dsp.enabledOf', { name: d.name })}
                    onChange={(enabled) =>
                      toggle
                        .mutateAsync({
                          id: d.id,
                          name: d.name,
                          endpoint: d.endpoint,
                          seat: d.seat,
                          timeoutMs: d.timeoutMs,
                          enabled,
                        })
                        .catch(() => undefined)
                    }
                    data-testid={`rtb-dsp-enabled-${d.id}`}
                  />
                ),
              },
              {
                key: 'last24h',
                title: t('dsp.last24h'),
                children: [
                  {
                    key: 'requests24h',
                    dataIndex: 'requests24h',
                    title: t('dsp.requests'),
                    width: 90,
                    align: 'right',
                    render: num,
                  },
                  {
                    key: 'bids24h',
                    dataIndex: 'bids24h',
                    title: t('dsp.bids'),
                    width: 80,
                    align: 'right',
                    render: num,
                  },
                  {
                    key: 'timeouts24h',
                    dataIndex: 'timeouts24h',
                    title: t('dsp.timeouts'),
                    width: 90,
                    align: 'right',
                    render: num,
                  },
                  {
                    key: 'invalid24h',
                    dataIndex: 'invalid24h',
                    title: t('dsp.invalid'),
                    width: 90,
                    align: 'right',
                    render: num,
                  },
                  {
                    key: 'wins24h',
                    dataIndex: 'wins24h',
                    title: t('dsp.wins'),
                    width: 80,
                    align: 'right',
                    render: num,
                  },
                ],
              },
              {
                key: 'updatedAt',
                dataIndex: 'updatedAt',
                title: t('dsp.updatedAt'),
                width: 170,
                render: (v: string) => formatTime(v),
              },
              ...(manage
                ? [
                    {
                      key: 'actions',
                      title: t('actions'),
                      width: 140,
                      fixed: 'right' as const,
                      render: (_: unknown, d: RtbDsp) => (
                        <Space size={4}>
                          <Typography.Link
                            onClick={() => setDialog({ editing: d })}
                            data-testid={`rtb-dsp-edit-${d.id}`}
                          >
                            {t('dsp.edit')}
                          </Typography.Link>
                          <ConfirmAction
                            label={t('dsp.delete')}
                            title={t('dsp.deleteConfirm', { name: d.name })}
                            description={t('dsp.deleteHint')}
                            cancelText={t('cancel')}
                            danger
                            testId={`rtb-dsp-delete-${d.id}`}
                            onConfirm={() => remove.mutateAsync({ id: d.id })}
                          />
                        </Space>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        )}
      </Card>
      <DspDialog open={dialog !== null} editing={dialog?.editing ?? null} onClose={() => setDialog(null)} />
    </div>
  );
}

/** Adds or edits a DSP (rtb.dspSave): name, endpoint URL (http or https), seat, tmax 10..1000 ms, enabled. */
export function DspDialog({ open, editing, onClose }: { open: boolean; editing: RtbDsp | null; onClose: () => void }) {
  const { t } = useTranslation(['rtb', 'validation']);
  return (
    <FormDialog<DspValues>
      open={open}
      title={editing ? t('dsp.editTitle', { name: editing.name }) : t('dsp.add')}
      onClose={onClose}
      width={520}
      initialValues={{ name: '', endpoint: '', seat: '', timeoutMs: DSP_TIMEOUT_DEFAULT_MS, enabled: true }}
      values={
        editing
          ? {
              name: editing.name,
              endpoint: editing.endpoint,
              seat: editing.seat,
              timeoutMs: editing.timeoutMs,
              enabled: editing.enabled,
            }
          : undefined
      }
      submit={(v) =>
        call('rtbDspSave', {
          ...(editing ? { id: editing.id } : {}),
          name: v.name.trim(),
          endpoint: v.endpoint.trim(),
          seat: (v.seat ?? '').trim(),
          timeoutMs: v.timeoutMs ?? DSP_TIMEOUT_DEFAULT_MS,
          enabled: v.enabled,
        })
      }
      success={editing ? t('dsp.saved') : t('dsp.added')}
      invalidates={['rtb']}
      okText={t('save')}
      cancelText={t('cancel')}
      testId="rtb-dsp-form"
      submitTestId="rtb-dsp-submit"
    >
      <Form.Item name="name" label={t('dsp.name')} rules={[requiredRule(t), maxLengthRule(t, RTB_NAME_MAX)]}>
        <Input maxLength={RTB_NAME_MAX} data-testid="rtb-dsp-name" />
      </Form.Item>
      <Form.Item
        name="endpoint"
        label={t('dsp.endpoint')}
        extra={t('dsp.endpointHint')}
        rules={[requiredRule(t), zodRule(dspSaveSchema.shape.endpoint, t)]}
      >
        <Input maxLength={500} inputMode="url" placeholder="https://" data-testid="rtb-dsp-endpoint" />
      </Form.Item>
      <Form.Item name="seat" label={t('dsp.seat')} extra={t('dsp.seatHint')} rules={[maxLengthRule(t, 64)]}>
        <Input maxLength={64} data-testid="rtb-dsp-seat" />
      </Form.Item>
      <Form.Item
        name="timeoutMs"
        label={t('dsp.timeout')}
        extra={t('dsp.timeoutHint', { min: DSP_TIMEOUT_MIN_MS, max: DSP_TIMEOUT_MAX_MS, def: DSP_TIMEOUT_DEFAULT_MS })}
        rules={[
          {
            validator: async (_r: unknown, v: number | null | undefined) => {
              if (v === null || v === undefined) throw new Error(t('required', { ns: 'validation' }));
              if (!Number.isInteger(v) || v < DSP_TIMEOUT_MIN_MS || v > DSP_TIMEOUT_MAX_MS) {
                throw new Error(t('dsp.timeoutRange', { min: DSP_TIMEOUT_MIN_MS, max: DSP_TIMEOUT_MAX_MS }));
              }
            },
          },
        ]}
      >
        <InputNumber suffix="ms" style={{ width: 160 }} data-testid="rtb-dsp-timeout" />
      </Form.Item>
      <Form.Item name="enabled" label={t('dsp.enabled')} valuePropName="checked">
        <Switch data-testid="rtb-dsp-enabled" />
      </Form.Item>
    </FormDialog>
  );
}
