import { PlusOutlined } from '@ant-design/icons';
import {
  type Endpoints,
  formatFen,
  type Req,
  RTB_CAMPAIGN_SHOWN_STATES,
  type RtbCampaign,
  type RtbCampaignShownState,
} from '@marquee/protocol';
import { Button, Progress, Tabs, Tooltip } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import { CountLabel } from '../../components/CountLabel';
import { ListPage, useListPage } from '../../components/listPage';
import { NotForMonitor } from '../../components/MonitorGuard';
import { formatHours } from '../sales/salesLook';
import { CampaignDialog } from './CampaignDialog';
import { CampaignDrawer } from './CampaignDrawer';
import { CampaignStateTag, useCpmText } from './rtbLook';

/** What ending releases at once: the budget neither spent nor reserved for won turns. */
export const unspent = (c: Pick<RtbCampaign, 'totalBudget' | 'spent' | 'reserved'>) =>
  Math.max(0, c.totalBudget - c.spent - c.reserved);

/**
 * /operate/order?tab=campaigns: the advertisers' RTB campaigns (rtb.campaignList) with a tab
 * per shown state and its count, the keyword filter; columns name, advertiser, state, bid per
 * thousand impressions, budget (spent / reserved / total with a bar), daily budget, period
 * and hours, pacing, the ad's review, wins and plays. New and edit open CampaignDialog; pause,
 * resume and end (after a confirmation naming the budget released) act on a row; the name
 * opens the detail drawer (delivery chart, totals, ledger transfers).
 */
export function CampaignsTab({ header }: { header?: ReactNode }) {
  const { t, i18n } = useTranslation(['rtb', 'ads']);
  const language = i18n.language;
  const cpm = useCpmText();
  const fen = (v: number) => formatFen(v, language);
  const [dialog, setDialog] = useState<{ editing: RtbCampaign | null } | null>(null);
  const [detail, setDetail] = useState<string | null>(null);
  const pause = useCallMutation('rtbCampaignPause', {
    success: (c) =>
      c.state === 'paused' ? t('campaign.pausedToast', { name: c.name }) : t('campaign.resumedToast', { name: c.name }),
  });
  const end = useCallMutation('rtbCampaignEnd', {
    success: (c) => t('campaign.endedToast', { name: c.name }),
    invalidates: ['finance'],
  });

  const list = useListPage({
    id: 'rtbCampaigns',
    endpoint: 'rtbCampaignList',
    scope: ['shownState'],
    filters: [{ key: 'keyword', label: t('campaign.keyword'), placeholder: t('campaign.keywordHint'), maxLength: 64 }],
    request: (filters, page) =>
      ({ page: page.page, pageSize: page.size, ...filters }) as Req<Endpoints['rtbCampaignList']>,
    columns: [
      {
        prop: 'name',
        label: t('campaign.name'),
        width: 180,
        slot: (v: string, row) => (
          <Button
            type="link"
            size="small"
            onClick={() => setDetail(row.id)}
            data-testid={`rtb-campaign-name-${row.id}`}
          >
            {v}
          </Button>
        ),
      },
      { prop: 'advertiserName', label: t('campaign.advertiser'), width: 140, ellipsis: true },
      {
        prop: 'shownState',
        label: t('campaign.state'),
        width: 110,
        slot: (v: RtbCampaignShownState) => <CampaignStateTag state={v} />,
      },
      { prop: 'bidCpm', label: t('campaign.bidCpm'), width: 130, align: 'right', slot: (v: number) => cpm(v) },
      {
        prop: 'totalBudget',
        label: t('campaign.budget'),
        width: 250,
        slot: (_: number, row) => <BudgetCell campaign={row} fen={fen} />,
      },
      {
        prop: 'dailyBudget',
        label: t('campaign.dailyBudget'),
        width: 120,
        align: 'right',
        slot: (v: number | null) => (v === null ? t('campaign.noDaily') : fen(v)),
      },
      {
        prop: 'startDate',
        label: t('campaign.period'),
        width: 220,
        slot: (_: string, row) => (
          <span>
            {row.startDate} ~ {row.endDate}
            <br />
            <small>{formatHours(row.hours)}</small>
          </span>
        ),
      },
      { prop: 'pacing', label: t('campaign.pacing'), width: 110, slot: (v: string) => t(`pacing.${v}`) },
      {
        prop: 'adReviewState',
        label: t('campaign.review'),
        width: 130,
        slot: (v: string | null) => (v ? t(`reviewState.${v}`, { ns: 'ads', defaultValue: v }) : t('campaign.noAd')),
      },
      { prop: 'wins', label: t('campaign.wins'), width: 90, showThousands: true },
      { prop: 'plays', label: t('campaign.plays'), width: 90, showThousands: true },
    ],
    operations: [
      {
        key: 'detail',
        label: t('campaign.detail'),
        handler: (row) => setDetail(row.id),
        testId: (row) => `rtb-campaign-detail-${row.id}`,
      },
      {
        key: 'edit',
        label: t('campaign.edit'),
        isShow: (row) => row.state !== 'ended',
        notForMonitor: true,
        handler: (row) => setDialog({ editing: row }),
        testId: (row) => `rtb-campaign-edit-${row.id}`,
      },
      {
        key: 'pause',
        label: t('campaign.pause'),
        isShow: (row) => row.state === 'active',
        notForMonitor: true,
        handler: (row) => pause.mutateAsync({ id: row.id, paused: true }),
        testId: (row) => `rtb-campaign-pause-${row.id}`,
      },
      {
        key: 'resume',
        label: t('campaign.resume'),
        isShow: (row) => row.state === 'paused',
        notForMonitor: true,
        handler: (row) => pause.mutateAsync({ id: row.id, paused: false }),
        testId: (row) => `rtb-campaign-resume-${row.id}`,
      },
      {
        key: 'end',
        label: t('campaign.end'),
        isShow: (row) => row.state !== 'ended',
        danger: true,
        notForMonitor: true,
        confirm: (row) => ({
          title: t('campaign.endConfirm', { name: row.name }),
          description: t('campaign.endReleases', { amount: fen(unspent(row)) }),
        }),
        handler: (row) => end.mutateAsync({ id: row.id }),
        testId: (row) => `rtb-campaign-end-${row.id}`,
      },
    ],
  });

  const counts = list.query.data?.counts ?? {};
  const all = Object.values(counts).reduce((a, b) => a + b, 0);
  const state = list.state.filters.shownState ?? '';
  const tabs = (
    <Tabs
      activeKey={state || 'all'}
      onChange={(key) => list.refine({ shownState: key === 'all' ? undefined : key })}
      data-testid="rtb-campaign-tabs"
      items={[
        { key: 'all', label: <CountLabel text={t('campaign.tabAll')} count={all} testId="rtb-campaign-tab-all" /> },
        ...RTB_CAMPAIGN_SHOWN_STATES.map((s) => ({
          key: s,
          label: (
            <CountLabel text={t(`campaign.states.${s}`)} count={counts[s] ?? 0} testId={`rtb-campaign-tab-${s}`} />
          ),
        })),
      ]}
    />
  );

  return (
    <ListPage
      list={list}
      header={header}
      title={t('campaign.title')}
      testPrefix="rtb-campaigns"
      above={tabs}
      rowTestId={(row) => `rtb-campaign-row-${row.id}`}
      empty={list.filtered || state ? t('campaign.emptyFiltered') : t('campaign.empty')}
      failed={{ description: t('loadFailed'), retryLabel: t('retry') }}
      showTotal={(total) => t('campaign.total', { count: total })}
      toolbar={
        <NotForMonitor>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setDialog({ editing: null })}
            data-testid="rtb-campaign-new"
          >
            {t('campaign.new')}
          </Button>
        </NotForMonitor>
      }
    >
      <CampaignDialog open={dialog !== null} editing={dialog?.editing ?? null} onClose={() => setDialog(null)} />
      <CampaignDrawer id={detail} onClose={() => setDetail(null)} />
    </ListPage>
  );
}

/** Spent / reserved / total, with a bar: spent solid, reserved lighter. */
function BudgetCell({ campaign: c, fen }: { campaign: RtbCampaign; fen: (v: number) => string }) {
  const { t } = useTranslation('rtb');
  const pct = (v: number) => (c.totalBudget > 0 ? Math.min(100, (v / c.totalBudget) * 100) : 0);
  return (
    <Tooltip title={t('budget.legend')}>
      <div data-testid={`rtb-campaign-budget-${c.id}`}>
        <span>
          {fen(c.spent)} / {fen(c.reserved)} / {fen(c.totalBudget)}
        </span>
        <Progress
          size="small"
          showInfo={false}
          percent={pct(c.spent + c.reserved)}
          success={{ percent: pct(c.spent) }}
          aria-label={t('budget.used', { pct: Math.round(pct(c.spent + c.reserved)) })}
        />
      </div>
    </Tooltip>
  );
}
