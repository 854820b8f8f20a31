import { ShoppingCartOutlined } from '@ant-design/icons';
import {
  CARD_ACTIONS,
  CARD_OPERATORS,
  CARD_STATES,
  CARD_TRANSITIONS,
  type CardAction,
  type CardState,
  formatSize,
  formatTime,
  type IotCard,
  Perm,
  TRAFFIC_MAX_MB,
  validationText,
} from '@marquee/protocol';
import { Button, InputNumber, Popconfirm, Progress, Space, Tag, Tooltip, Typography, theme } from 'antd';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useCallMutation } from '../../api/queries';
import { AddButton } from '../../components/AddButton';
import { confirmOkProps } from '../../components/ConfirmAction';
import { tagColumn, timeColumn } from '../../components/columns';
import { ListPage, useListPage } from '../../components/listPage';
import { NotForMonitor } from '../../components/MonitorGuard';
import type { TableOperation } from '../../components/tableConfig';
import { useCan } from '../../session/useCan';
import { BindDialog } from './BindDialog';
import { CardDialog } from './CardDialog';
import { CardImportButton } from './CardImportDialog';
import { allCanTake, daysLeft, EXPIRY_WARNING_DAYS, mbToBytes, nearEnd, STATE_COLORS, usedPercent } from './look';
import './flow.css';

/** A traffic bound typed in the filter bar (MB, spec section 5: 0 to 99999), as a number or nothing. */
function trafficValue(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return Number(value);
}

/**
 * The protocol's message of the traffic range (`validation.trafficRange`, the server's own), from
 * the `validation` namespace, or the protocol's catalogue while that namespace lacks it.
 */
function trafficMessage(t: TFunction, language: string): string {
  return t('validation:trafficRange', { defaultValue: validationText({ key: 'trafficRange' }, language) });
}

/** The traffic bounds' form rules: each within 0..99999 whole MB, and the lower not above the upper. */
function trafficRules(t: TFunction, language: string, which: 'min' | 'max'): Rule[] {
  return [
    {
      validator: async (_rule, value) => {
        const n = trafficValue(value);
        if (n === undefined) return;
        if (!Number.isInteger(n) || n < 0 || n > TRAFFIC_MAX_MB) throw new Error(trafficMessage(t, language));
      },
    },
    ...(which === 'max'
      ? [
          ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
            validator: async (_rule: unknown, value: unknown) => {
              const max = trafficValue(value);
              const min = trafficValue(getFieldValue('leftMin'));
              if (max !== undefined && min !== undefined && min > max) throw new Error(t('filter.leftOrder'));
            },
          }),
        ]
      : []),
  ];
}

/** The month's use of a card: a small bar of the package (warning colour from 90 %) and the figures. */
function Usage({ card }: { card: IotCard }) {
  const { t } = useTranslation('flow');
  const { token } = theme.useToken();
  const percent = usedPercent(card.usedMb, card.packageMb);
  const used = formatSize(mbToBytes(card.usedMb));
  if (percent === null)
    return (
      <span data-testid="flow-usage">
        {t('card.usedOnly', { used })}
        <br />
        <Typography.Text type="secondary">{t('card.noPackage')}</Typography.Text>
      </span>
    );
  const warn = nearEnd(percent);
  return (
    <div data-testid="flow-usage" data-warning={warn}>
      <Progress
        percent={percent}
        size="small"
        showInfo={false}
        strokeColor={warn ? token.colorWarning : token.colorPrimary}
        aria-label={t('card.usedPercent', { percent })}
      />
      <Typography.Text type={warn ? 'warning' : undefined} className="mq-flow-usage-text">
        {t('card.usage', { used, left: formatSize(mbToBytes(card.leftMb ?? 0)) })}
      </Typography.Text>
    </div>
  );
}

/** The expiry: its time, and 'expires in N days' (or 'expired') once fewer than 15 days are left. */
function Expiry({ card, now }: { card: IotCard; now: number }) {
  const { t } = useTranslation('flow');
  const days = daysLeft(card.expiresAt, now);
  if (days === null) return <span>-</span>;
  return (
    <span>
      {formatTime(card.expiresAt)}
      {days <= 0 ? (
        <>
          <br />
          <Typography.Text type="danger" data-testid="flow-expired">
            {t('card.expired')}
          </Typography.Text>
        </>
      ) : days < EXPIRY_WARNING_DAYS ? (
        <>
          <br />
          <Typography.Text type="warning" data-testid="flow-expires-soon">
            {t('card.expiresIn', { count: days })}
          </Typography.Text>
        </>
      ) : null}
    </span>
  );
}

/**
 * The IoT data cards (/operate/flow; issue 27): the enterprise's SIM cards with their operator,
 * data package and this month's use, state (spec section 4's seven), device, activation and
 * expiry, auto-renewal (read only: managed in the market). Filters in the URL: state, operator,
 * keyword (ICCID or device), traffic left (0..99999 MB), bound or not. Add one card, import
 * many from Excel, buy a data package in the market; per card: edit, bind or change its device,
 * unbind, and the state actions CARD_TRANSITIONS allows (the same table as the server's); the
 * same actions for the selected cards at once.
 */
export default function FlowCardPage() {
  const { t, i18n } = useTranslation('flow');
  const navigate = useNavigate();
  const can = useCan();
  const canPickDevices = can(Perm.device);
  const canOpenDevice = can(Perm.deviceContext);
  const canBuy = can(Perm.applicationMarket);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<IotCard | null>(null);
  const [binding, setBinding] = useState<IotCard | null>(null);
  /** The selected cards (kept across pages) with the state each was last seen in. */
  const [selected, setSelected] = useState<Record<string, CardState>>({});
  const now = Date.now();

  const transition = useCallMutation('flowCardTransition', {
    success: (answer, request) => t('action.done', { count: answer.updated, action: t(`action.${request.action}`) }),
    invalidates: ['devices'],
  });
  const unbind = useCallMutation('flowCardBind', { success: t('unbind.done'), invalidates: ['devices'] });

  const stateAction = (action: CardAction): TableOperation<IotCard> => ({
    key: action,
    label: t(`action.${action}`),
    isShow: (row) => CARD_TRANSITIONS[action].from.includes(row.state),
    handler: (row) => transition.mutateAsync({ ids: [row.id], action }),
    confirm:
      action === 'cancel'
        ? (row) => ({ title: t('cancel.title', { iccid: row.iccid }), description: t('cancel.description') })
        : action === 'suspend'
          ? (row) => ({ title: t('suspend.title', { iccid: row.iccid }), description: t('suspend.description') })
          : undefined,
    danger: action === 'cancel',
    notForMonitor: true,
    testId: () => `flow-state-action-${action}`,
  });

  const list = useListPage({
    id: 'flowCards',
    endpoint: 'flowCardList',
    onFilter: () => setSelected({}),
    filters: [
      {
        key: 'keyword',
        label: t('filter.keyword'),
        placeholder: t('filter.keywordPlaceholder'),
        maxLength: 64,
        width: 200,
      },
      {
        key: 'state',
        kind: 'select',
        label: t('col.state'),
        placeholder: t('filter.all'),
        width: 130,
        options: CARD_STATES.map((s) => ({ value: s, label: t(`state.${s}`) })),
      },
      {
        key: 'operator',
        kind: 'select',
        label: t('col.operator'),
        placeholder: t('filter.all'),
        width: 130,
        options: CARD_OPERATORS.map((o) => ({ value: o, label: t(`operator.${o}`) })),
      },
      {
        key: 'leftMin',
        kind: 'custom',
        label: t('filter.leftMin'),
        param: Number,
        rules: trafficRules(t, i18n.language, 'min'),
        render: () => (
          <InputNumber
            placeholder={t('filter.mbPlaceholder')}
            aria-label={t('filter.leftMin')}
            style={{ width: 110 }}
            data-testid="flowCards-filter-leftMin"
          />
        ),
      },
      {
        key: 'leftMax',
        kind: 'custom',
        label: t('filter.leftMax'),
        param: Number,
        rules: trafficRules(t, i18n.language, 'max'),
        render: () => (
          <InputNumber
            placeholder={t('filter.mbPlaceholder')}
            aria-label={t('filter.leftMax')}
            style={{ width: 110 }}
            data-testid="flowCards-filter-leftMax"
          />
        ),
      },
      {
        key: 'bound',
        kind: 'select',
        label: t('filter.bound'),
        placeholder: t('filter.all'),
        width: 130,
        param: (v) => v === 'bound',
        options: [
          { value: 'bound', label: t('filter.boundYes') },
          { value: 'unbound', label: t('filter.boundNo') },
        ],
      },
    ],
    columns: [
      {
        prop: 'iccid',
        label: t('col.iccid'),
        width: 250,
        slot: (v: string) => (
          <Typography.Text
            className="mq-flow-mono"
            copyable={{ text: v, tooltips: [t('card.copy'), t('card.copied')] }}
            data-testid="flow-iccid"
          >
            {v}
          </Typography.Text>
        ),
      },
      { prop: 'operator', label: t('col.operator'), width: 120, slot: (v: string) => t(`operator.${v}`) },
      {
        prop: 'packageName',
        label: t('col.package'),
        width: 170,
        slot: (v: string | null, row) =>
          v ? (
            <span>
              {v}
              <br />
              <Typography.Text type="secondary">
                {t('card.perMonth', { size: formatSize(mbToBytes(row.packageMb ?? 0)) })}
              </Typography.Text>
            </span>
          ) : (
            <Typography.Text type="secondary">{t('card.noPackage')}</Typography.Text>
          ),
      },
      { prop: 'usedMb', label: t('col.usage'), width: 210, slot: (_v: number, row) => <Usage card={row} /> },
      tagColumn<IotCard>(
        'state',
        t('col.state'),
        (v) => ({ color: STATE_COLORS[v as CardState], text: t(`state.${v}`) }),
        { width: 110 },
      ),
      {
        prop: 'deviceName',
        label: t('col.device'),
        width: 170,
        ellipsis: true,
        slot: (v: string | null, row) =>
          row.deviceId ? (
            canOpenDevice ? (
              <Link to={`/device/context?id=${encodeURIComponent(row.deviceId)}`} data-testid="flow-device-link">
                {v || row.deviceId}
              </Link>
            ) : (
              v || row.deviceId
            )
          ) : (
            <Typography.Text type="secondary">{t('card.unbound')}</Typography.Text>
          ),
      },
      timeColumn<IotCard>('activatedAt', t('col.activatedAt')),
      {
        prop: 'expiresAt',
        label: t('col.expiresAt'),
        width: 180,
        slot: (_v: string, row) => <Expiry card={row} now={now} />,
      },
      {
        prop: 'autoRenew',
        label: t('col.autoRenew'),
        width: 120,
        slot: (v: boolean) => (
          <Tooltip title={t('card.autoRenewHint')}>
            <Tag color={v ? 'success' : 'default'} data-testid="flow-auto-renew">
              {v ? t('card.autoRenewOn') : t('card.autoRenewOff')}
            </Tag>
          </Tooltip>
        ),
      },
      { prop: 'remark', label: t('col.remark'), width: 160, ellipsis: true, show: false },
      timeColumn<IotCard>('createdAt', t('col.createdAt'), { show: false }),
    ],
    operations: [
      { key: 'edit', label: t('action.edit'), handler: setEditing, notForMonitor: true, testId: () => 'flow-edit' },
      {
        key: 'bind',
        label: t('action.bind'),
        isShow: (row) => !row.deviceId && row.state !== 'cancelled',
        disabled: () => (canPickDevices ? false : t('bind.needDevices')),
        handler: setBinding,
        notForMonitor: true,
        testId: () => 'flow-bind',
      },
      {
        key: 'change',
        label: t('action.changeDevice'),
        isShow: (row) => Boolean(row.deviceId) && row.state !== 'cancelled',
        disabled: () => (canPickDevices ? false : t('bind.needDevices')),
        handler: setBinding,
        notForMonitor: true,
        testId: () => 'flow-bind',
      },
      {
        key: 'unbind',
        label: t('action.unbind'),
        isShow: (row) => Boolean(row.deviceId) && row.state !== 'cancelled',
        confirm: (row) => ({
          title: t('unbind.title', { iccid: row.iccid }),
          description: t('unbind.description', { device: row.deviceName ?? row.deviceId }),
        }),
        handler: (row) => unbind.mutateAsync({ id: row.id, deviceId: null }),
        notForMonitor: true,
        testId: () => 'flow-unbind',
      },
      ...CARD_ACTIONS.map(stateAction),
    ],
  });

  // The states of the selected cards: as shown on this page when they are on it, else as last seen.
  const rows = list.query.data?.data ?? [];
  const ids = Object.keys(selected);
  const states = ids.map((id) => rows.find((r) => r.id === id)?.state ?? selected[id]);
  const runBatch = (action: CardAction) =>
    transition.mutateAsync({ ids, action }).then(
      () => setSelected({}),
      () => undefined,
    );

  const batch =
    ids.length > 0 ? (
      <NotForMonitor>
        <Space wrap size={4} className="mq-flow-batch" data-testid="flow-batch">
          <Typography.Text>{t('batch.selected', { count: ids.length })}</Typography.Text>
          {CARD_ACTIONS.map((action) => {
            const allowed = allCanTake(states, action);
            const button = (
              <Button
                size="small"
                danger={action === 'cancel'}
                disabled={!allowed}
                loading={transition.isPending && transition.variables?.action === action}
                onClick={action === 'cancel' ? undefined : () => void runBatch(action)}
                data-testid={`flow-batch-${action}`}
              >
                {t(`action.${action}`)}
              </Button>
            );
            if (!allowed)
              return (
                <Tooltip key={action} title={t('batch.notAll', { action: t(`action.${action}`) })}>
                  <span>{button}</span>
                </Tooltip>
              );
            if (action !== 'cancel') return <span key={action}>{button}</span>;
            return (
              <Popconfirm
                key={action}
                title={t('cancel.batchTitle', { count: ids.length })}
                description={t('cancel.description')}
                okText={t('action.cancel')}
                cancelText={t('action.keep')}
                okButtonProps={confirmOkProps(true)}
                onConfirm={() => runBatch(action)}
              >
                {button}
              </Popconfirm>
            );
          })}
          <Button size="small" type="link" onClick={() => setSelected({})} data-testid="flow-batch-clear">
            {t('batch.clear')}
          </Button>
        </Space>
      </NotForMonitor>
    ) : null;

  return (
    <ListPage
      list={list}
      title={t('title')}
      testPrefix="flow"
      className="mq-flow"
      toolbar={
        <Space wrap>
          <AddButton label={t('action.add')} notForMonitor onClick={() => setAdding(true)} testId="flow-add" />
          <CardImportButton />
          {canBuy ? (
            <Button
              icon={<ShoppingCartOutlined />}
              onClick={() => navigate('/shop/detail?kind=dataCard')}
              data-testid="flow-buy"
            >
              {t('action.buy')}
            </Button>
          ) : null}
          {batch}
        </Space>
      }
      rowTestId={(row) => `flow-row-${row.iccid}`}
      rowSelection={{
        selectedRowKeys: ids,
        preserveSelectedRowKeys: true,
        onChange: (keys, picked) => {
          setSelected((known) => {
            const next: Record<string, CardState> = {};
            for (const key of keys.map(String))
              next[key] = picked.find((r) => r?.id === key)?.state ?? known[key] ?? 'stock';
            return next;
          });
        },
        getCheckboxProps: (row) =>
          ({
            disabled: row.state === 'cancelled',
            'aria-label': t('batch.select', { iccid: row.iccid }),
            'data-testid': `flow-select-${row.iccid}`,
          }) as object,
      }}
      empty={list.filtered ? t('list.emptyFiltered') : t('list.empty')}
      failed={{ description: t('list.failed'), retryLabel: t('action.retry') }}
      showTotal={(total) => t('list.total', { count: total })}
    >
      <CardDialog
        open={adding || editing !== null}
        editing={editing}
        onClose={() => {
          setAdding(false);
          setEditing(null);
        }}
      />
      <BindDialog card={binding} onClose={() => setBinding(null)} />
    </ListPage>
  );
}
