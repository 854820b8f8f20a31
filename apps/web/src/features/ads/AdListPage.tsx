import { AD_STATUSES, AD_TYPES, type Ad, Perm, ROUTES } from '@marquee/protocol';
import { Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCallMutation } from '../../api/queries';
import { AddButton } from '../../components/AddButton';
import { tagColumn, timeColumn } from '../../components/columns';
import { ListPage, useListPage } from '../../components/listPage';
import { useCan } from '../../session/useCan';
import { AdDetailDrawer } from './AdDetailDrawer';
import { periodText, statusLook } from './adLook';
import { usePlanOptions } from './plans';

/** Whether the edit page is online (the list offers new and edit only then). */
const editOnline = () => ROUTES.some((r) => r.path === '/advert/edit' && r.online);

/**
 * The ads (/advert): filtered by name, number, type, status, plan and period; each with its
 * status tag (the server's), a details drawer, and by permission edit, pause or enable and
 * delete (asked first).
 */
export default function AdListPage() {
  const { t } = useTranslation(['ads', 'common']);
  const navigate = useNavigate();
  const can = useCan();
  const [viewing, setViewing] = useState<string | null>(null);
  const plans = usePlanOptions(can(Perm.advPlan));

  const pause = useCallMutation('adDisable', { success: t('ad.paused') });
  const enable = useCallMutation('adEnable', { success: t('ad.enabled') });
  const broadcast = useCallMutation('adBroadcast', {
    success: (answer) => t('ad.broadcasted', { count: answer.devices }),
  });
  const remove = useCallMutation('adDelete', { success: t('ad.deleted') });

  const canEditPage = editOnline();
  const manage = {
    authCode: Perm.advEdit,
    notForMonitor: true,
    disabled: (row: Ad) => (row.hasPermission ? false : t('noPermission')),
  };
  const live = (row: Ad) => row.status !== 'deleted' && row.status !== 'expired';
  /** A change of the ad by its endpoint (`ask`: the question asked first), for whoever may edit it. */
  const act = (
    key: 'pause' | 'broadcast' | 'enable' | 'delete',
    run: { mutateAsync: (request: { id: string }) => Promise<unknown> },
    isShow: (row: Ad) => boolean,
    ask?: string,
  ) => ({
    ...manage,
    key,
    label: t(key === 'delete' ? 'delete' : `ad.${key}`),
    danger: key === 'delete',
    isShow,
    confirm: ask ? (row: Ad) => ({ title: t(ask, { name: row.name }) }) : undefined,
    handler: (row: Ad) => run.mutateAsync({ id: row.id }),
    testId: (row: Ad) => `ad-${key}-${row.name}`,
  });
  /** A select filter: the field's label and test id, every value when none is chosen. */
  const choice = <K extends string>(key: K, name: string, width: number, options: { value: string; label: string }[]) =>
    ({
      key,
      kind: 'select',
      label: t(`ad.field.${name}`),
      width,
      placeholder: t('all'),
      options,
      testId: `ad-filter-${name}`,
    }) as const;
  const list = useListPage({
    id: 'ads',
    endpoint: 'adList',
    filters: [
      { key: 'name', label: t('ad.field.name'), width: 160 },
      {
        key: 'number',
        label: t('ad.field.number'),
        width: 120,
        maxLength: 9,
        rules: [{ pattern: /^\d{1,9}$/, message: t('ad.numberDigits') }],
        testId: 'ad-filter-number',
      },
      choice(
        'type',
        'type',
        130,
        AD_TYPES.map((v) => ({ value: v, label: t(`type.${v}`) })),
      ),
      choice(
        'status',
        'status',
        140,
        AD_STATUSES.map((v) => ({ value: v, label: t(`status.${v}`) })),
      ),
      {
        ...choice('planId', 'plan', 160, plans.data ?? []),
        hidden: !can(Perm.advPlan),
        showSearch: true,
        loading: plans.isFetching,
      },
      { key: 'range', kind: 'range', from: 'from', to: 'to', label: t('ad.field.period') },
    ],
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
      act('pause', pause, (row) => live(row) && !row.paused, 'ad.confirmPause'),
      act(
        'broadcast',
        broadcast,
        (row) => live(row) && !row.paused && row.reviewState === 'passed',
        'ad.confirmBroadcast',
      ),
      act('enable', enable, (row) => live(row) && row.paused),
      act('delete', remove, (row) => row.status !== 'deleted', 'ad.confirmDelete'),
    ],
  });

  return (
    <ListPage
      list={list}
      testPrefix="ad"
      className="mq-ads"
      title={t('ad.title')}
      toolbar={
        canEditPage && can(Perm.advEdit) ? (
          <AddButton label={t('ad.add')} notForMonitor onClick={() => navigate('/advert/edit')} testId="ad-add" />
        ) : null
      }
      rowTestId={(row) => `ad-row-${row.name}`}
      empty={t('ad.empty')}
      showTotal={(total) => t('ad.total', { count: total })}
    >
      <AdDetailDrawer id={viewing} onClose={() => setViewing(null)} />
    </ListPage>
  );
}
