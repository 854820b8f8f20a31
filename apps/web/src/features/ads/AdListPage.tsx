import { PlusOutlined } from '@ant-design/icons';
import { AD_STATUSES, AD_TYPES, type Ad, type AdStatus, type AdType, Perm, ROUTES } from '@marquee/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Form, Input, Select, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { call } from '../../api/client';
import { tagColumn, timeColumn } from '../../components/columns';
import { type DayRange, dayRangeParams, dayRangeValue } from '../../components/dateRange';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import { NotForMonitor } from '../../components/MonitorGuard';
import type { TableConfig } from '../../components/tableConfig';
import { useCan } from '../../session/useCan';
import { AdDetailDrawer } from './AdDetailDrawer';
import { periodText, statusLook } from './adLook';
import { usePlanOptions } from './plans';

const FILTER_KEYS = ['name', 'number', 'type', 'status', 'planId', 'from', 'to'] as const;

interface FilterValues {
  name?: string;
  number?: string;
  type?: string;
  status?: string;
  planId?: string;
  range?: DayRange;
}

/** Whether the edit page is online (the list offers new and edit only then). */
const editOnline = () => ROUTES.some((r) => r.path === '/advert/edit' && r.online);

/**
 * The ads (/advert): filtered by name, number, type, status, plan and period; each with its
 * status tag (the server's), a details drawer, and by permission edit, pause or enable and
 * delete (asked first).
 */
export default function AdListPage() {
  const { t } = useTranslation(['ads', 'common']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const can = useCan();
  const listState = useUrlListState(FILTER_KEYS);
  const { filters, pageRequest } = listState;
  const [viewing, setViewing] = useState<string | null>(null);
  const plans = usePlanOptions(can(Perm.advPlan));

  const list = useQuery({
    queryKey: ['ads', 'list', pageRequest, filters],
    queryFn: ({ signal }) =>
      call(
        'adList',
        {
          ...pageRequest,
          ...filters,
          type: filters.type as AdType | undefined,
          status: filters.status as AdStatus | undefined,
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });

  const done = (key: string) => {
    void message.success(t(key));
    void queryClient.invalidateQueries({ queryKey: ['ads'] });
    void queryClient.invalidateQueries({ queryKey: ['adPlans'] });
  };
  const pause = useMutation({
    mutationFn: (id: string) => call('adDisable', { id }),
    onSuccess: () => done('ad.paused'),
  });
  const enable = useMutation({
    mutationFn: (id: string) => call('adEnable', { id }),
    onSuccess: () => done('ad.enabled'),
  });
  const broadcast = useMutation({
    mutationFn: (id: string) => call('adBroadcast', { id }),
    onSuccess: (answer) => {
      void message.success(t('ad.broadcasted', { count: answer.devices }));
      void queryClient.invalidateQueries({ queryKey: ['push.list'] });
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => call('adDelete', { id }),
    onSuccess: () => done('ad.deleted'),
  });

  const canEditPage = editOnline();
  const manage = {
    authCode: Perm.advEdit,
    notForMonitor: true,
    disabled: (row: Ad) => (row.hasPermission ? false : t('noPermission')),
  };
  const live = (row: Ad) => row.status !== 'deleted' && row.status !== 'expired';
  const config: TableConfig<Ad> = {
    id: 'ads',
    operationsLabel: t('actions'),
    columns: [
      { prop: 'number', label: t('ad.field.number'), width: 110 },
      {
        prop: 'name',
        label: t('ad.field.name'),
        width: 200,
        ellipsis: true,
        slot: (name: string, row) => (
          <span>
            {name}
            {row.expiringSoon ? (
              <Tag color="orange" style={{ marginInlineStart: 6 }}>
                {t('ad.expiringSoon')}
              </Tag>
            ) : null}
          </span>
        ),
      },
      tagColumn('type', t('ad.field.type'), (v) => ({ text: t(`type.${v}`) }), { width: 110 }),
      tagColumn('status', t('ad.field.status'), statusLook(t), { width: 120 }),
      { prop: 'planName', label: t('ad.field.plan'), width: 150, ellipsis: true },
      { prop: 'startAt', label: t('ad.field.period'), width: 330, slot: (_v: string, row) => periodText(row) },
      {
        prop: 'strategy',
        label: t('ad.field.strategy'),
        width: 150,
        slot: (v: string, row) => `${t(`strategy.${v}`)} · ${row.playsMin}–${row.playsMax}`,
      },
      timeColumn('auditTime', t('ad.field.auditTime'), { show: false }),
      { prop: 'auditorName', label: t('ad.field.auditor'), width: 120, show: false },
      { prop: 'ownerName', label: t('field.owner'), width: 120, ellipsis: true },
      timeColumn('createdAt', t('field.createdAt')),
    ],
    operations: [
      {
        key: 'details',
        label: t('ad.details'),
        handler: (row) => setViewing(row.id),
        testId: (row) => `ad-details-${row.name}`,
      },
      {
        key: 'report',
        label: t('ad.report'),
        authCode: `${Perm.advReport},${Perm.reportAd}`,
        isShow: (row) => row.status !== 'pendingAudit' && row.status !== 'auditFailed',
        handler: (row) =>
          navigate(
            `${can(Perm.advReport) ? '/advert/reportDetail' : '/report/adDetail'}?id=${encodeURIComponent(row.id)}`,
          ),
        testId: (row) => `ad-report-${row.name}`,
      },
      ...(canEditPage
        ? [
            {
              ...manage,
              key: 'edit',
              label: t('edit'),
              isShow: live,
              handler: (row: Ad) => navigate(`/advert/edit?id=${encodeURIComponent(row.id)}`),
              testId: (row: Ad) => `ad-edit-${row.name}`,
            },
          ]
        : []),
      {
        ...manage,
        key: 'pause',
        label: t('ad.pause'),
        isShow: (row) => live(row) && !row.paused,
        confirm: (row) => ({ title: t('ad.confirmPause', { name: row.name }) }),
        handler: (row) => pause.mutateAsync(row.id),
        testId: (row) => `ad-pause-${row.name}`,
      },
      {
        ...manage,
        key: 'broadcast',
        label: t('ad.broadcast'),
        isShow: (row) => live(row) && !row.paused && row.reviewState === 'passed',
        confirm: (row) => ({ title: t('ad.confirmBroadcast', { name: row.name }) }),
        handler: (row) => broadcast.mutateAsync(row.id),
        testId: (row) => `ad-broadcast-${row.name}`,
      },
      {
        ...manage,
        key: 'enable',
        label: t('ad.enable'),
        isShow: (row) => live(row) && row.paused,
        handler: (row) => enable.mutateAsync(row.id),
        testId: (row) => `ad-enable-${row.name}`,
      },
      {
        ...manage,
        key: 'delete',
        label: t('delete'),
        danger: true,
        isShow: (row) => row.status !== 'deleted',
        confirm: (row) => ({ title: t('ad.confirmDelete', { name: row.name }) }),
        handler: (row) => remove.mutateAsync(row.id),
        testId: (row) => `ad-delete-${row.name}`,
      },
    ],
  };

  const filterValues = useMemo<FilterValues>(
    () => ({
      name: filters.name,
      number: filters.number,
      type: filters.type,
      status: filters.status,
      planId: filters.planId,
      range: dayRangeValue(filters.from, filters.to),
    }),
    [filters],
  );
  const search = (v: FilterValues) =>
    listState.applyFilters({
      name: v.name,
      number: v.number,
      type: v.type,
      status: v.status,
      planId: v.planId,
      ...dayRangeParams(v.range),
    });

  return (
    <div className="mq-view mq-ads" data-testid="ad-page">
      <Card size="small" className="mq-filter-card" style={{ marginBottom: 12 }}>
        <FilterBar
          values={filterValues}
          onSearch={search}
          onReset={listState.clearFilters}
          testIds={{ search: 'ad-search', reset: 'ad-reset' }}
        >
          <Form.Item name="name" label={t('ad.field.name')}>
            <Input allowClear style={{ width: 160 }} data-testid="ad-filter-name" />
          </Form.Item>
          <Form.Item
            name="number"
            label={t('ad.field.number')}
            rules={[{ pattern: /^\d{1,9}$/, message: t('ad.numberDigits') }]}
          >
            <Input allowClear style={{ width: 120 }} maxLength={9} data-testid="ad-filter-number" />
          </Form.Item>
          <Form.Item name="type" label={t('ad.field.type')}>
            <Select
              allowClear
              style={{ width: 130 }}
              placeholder={t('all')}
              options={AD_TYPES.map((v) => ({ value: v, label: t(`type.${v}`) }))}
              data-testid="ad-filter-type"
            />
          </Form.Item>
          <Form.Item name="status" label={t('ad.field.status')}>
            <Select
              allowClear
              style={{ width: 140 }}
              placeholder={t('all')}
              options={AD_STATUSES.map((v) => ({ value: v, label: t(`status.${v}`) }))}
              data-testid="ad-filter-status"
            />
          </Form.Item>
          {can(Perm.advPlan) ? (
            <Form.Item name="planId" label={t('ad.field.plan')}>
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                style={{ width: 160 }}
                placeholder={t('all')}
                loading={plans.isFetching}
                options={plans.data ?? []}
                data-testid="ad-filter-plan"
              />
            </Form.Item>
          ) : null}
          <Form.Item name="range" label={t('ad.field.period')}>
            <DatePicker.RangePicker allowEmpty={[true, true]} data-testid="ad-filter-range" />
          </Form.Item>
        </FilterBar>
      </Card>
      <Card size="small" className="mq-list-card" title={t('ad.title')}>
        <ListTable
          config={config}
          query={list}
          state={listState}
          toolbar={
            canEditPage && can(Perm.advEdit) ? (
              <NotForMonitor>
                <Button
                  type="primary"
                  icon={<PlusOutlined />}
                  onClick={() => navigate('/advert/edit')}
                  data-testid="ad-add"
                >
                  {t('ad.add')}
                </Button>
              </NotForMonitor>
            ) : null
          }
          rowTestId={(row) => `ad-row-${row.name}`}
          empty={t('ad.empty')}
          showTotal={(total) => t('ad.total', { count: total })}
        />
      </Card>
      <AdDetailDrawer id={viewing} onClose={() => setViewing(null)} />
    </div>
  );
}
