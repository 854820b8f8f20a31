import {
  type Endpoints,
  ErrorCode,
  formatFen,
  formatTime,
  type Goods,
  IMPRESSIONS_K_MAX,
  IMPRESSIONS_K_MIN,
  Perm,
  type Req,
  type SalesOrder,
  type SalesQuote,
} from '@marquee/protocol';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  DatePicker,
  Descriptions,
  Drawer,
  Empty,
  Form,
  InputNumber,
  Modal,
  Radio,
  Result,
  Row,
  Select,
  Space,
  Spin,
  Table,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../api/client';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { useEnterpriseToday } from '../../components/enterpriseToday';
import { useSession } from '../../session/session';
import { useCan } from '../../session/useCan';
import { useDebounced } from '../market/useDebounced';
import { AvailabilityPanel } from './AvailabilityPanel';
import {
  balanceCovers,
  type ComposerLine,
  type ComposerState,
  clampDate,
  composerRequest,
  conflictLines,
  HOUR_PRESETS,
  type HourPreset,
  linesOfGoods,
  presetOf,
  presetWithin,
  quoteDiscounts,
  toggleHour,
} from './orderLogic';
import { discountText, SalesMethodTag } from './salesLook';

/** The finance centre, where a wallet is recharged (features/finance's RechargeDialog). */
export const RECHARGE_PATH = '/my/finance';
const QUOTE_DEBOUNCE_MS = 350;

/**
 * Pays an unpaid order (sales.orderPay) after a confirmation naming what it freezes in the
 * wallet; a wallet short of it shows the recharge link instead of only a toast.
 */
export function PayOrderButton({
  order,
  type = 'primary',
  onPaid,
}: {
  order: Pick<SalesOrder, 'id' | 'no' | 'amount'>;
  type?: 'primary' | 'default' | 'link';
  onPaid?: (order: SalesOrder) => void;
}) {
  const { t, i18n } = useTranslation('sales');
  const [open, setOpen] = useState(false);
  const [short, setShort] = useState(false);
  const pay = useCallMutation('salesOrderPay', {
    success: (o) => t('order.paidToast', { no: o.no }),
    invalidates: ['finance', 'payments'],
    onSuccess: (o) => {
      setOpen(false);
      onPaid?.(o);
    },
  });
  return (
    <>
      <Button type={type} onClick={() => setOpen(true)} data-testid={`sales-pay-${order.id}`}>
        {t('order.payNow')}
      </Button>
      <Modal
        open={open}
        title={t('order.payConfirm', { no: order.no })}
        okText={t('order.pay')}
        cancelText={t('order.back')}
        confirmLoading={pay.isPending}
        okButtonProps={{ 'data-testid': 'sales-pay-ok' }}
        onCancel={() => {
          setOpen(false);
          setShort(false);
        }}
        onOk={() =>
          pay.mutateAsync({ id: order.id }).catch((err: unknown) => {
            if (err instanceof ApiError && err.code === ErrorCode.INSUFFICIENT_BALANCE) setShort(true);
          })
        }
        destroyOnHidden
      >
        <Typography.Paragraph data-testid="sales-pay-text">
          {t('order.payFreezes', { amount: formatFen(order.amount, i18n.language) })}
        </Typography.Paragraph>
        {short ? (
          <Alert
            type="error"
            showIcon
            data-testid="sales-pay-short"
            title={t('order.insufficient')}
            description={
              <Link to={RECHARGE_PATH} data-testid="sales-pay-recharge">
                {t('order.recharge')}
              </Link>
            }
          />
        ) : null}
      </Modal>
    </>
  );
}

/** Whether the caller orders for itself (an advertiser) rather than for advertisers it manages. */
export function useOrdersForSelf(): { self: boolean; loading: boolean } {
  const accountId = useSession((s) => s.id);
  const options = useCallQuery('salesAdvertiserOptions', {}, { staleTime: 60_000 });
  const data = options.data?.data ?? [];
  return { self: data.length === 1 && data[0].id === accountId, loading: options.isPending };
}

/** What a line offers: its slot's name, method, rotations at most and the screens it may choose among. */
interface LineOffer {
  slotId: string;
  slotName: string;
  salesMethod: 'cpt' | 'cpm';
  maxRotations: number;
  /** The goods line's screens (empty: every screen of the slot). */
  offered: string[];
}

function offersOfGoods(goods: Goods): LineOffer[] {
  return goods.lines.map((l) => ({
    slotId: l.slotId,
    slotName: l.slotName,
    salesMethod: l.salesMethod,
    maxRotations: l.maxRotations,
    offered: l.deviceIds,
  }));
}

/**
 * The period a goods item lets one order: from today (the enterprise's) or its start to its
 * end, first week chosen.
 */
function defaultPeriod(goods: Pick<Goods, 'startDate' | 'endDate'>, today: string): [string, string] {
  const start = clampDate(today, goods.startDate, goods.endDate);
  const week = dayjs(start).add(6, 'day').format('YYYY-MM-DD');
  return [start, clampDate(week, start, goods.endDate)];
}

/** The screens picker of a line: all those offered, or some (long-offline ones disabled with why). */
function ScreensField({
  offer,
  value,
  onChange,
}: {
  offer: LineOffer;
  value: string[];
  onChange: (ids: string[]) => void;
}) {
  const { t } = useTranslation('sales');
  const [subset, setSubset] = useState(value.length > 0);
  const [keyword, setKeyword] = useState('');
  const typed = useDebounced(keyword, 300);
  const devices = useCallQuery(
    'salesSlotDevices',
    { slotId: offer.slotId, keyword: typed || undefined, page: 1, size: 100 },
    { enabled: subset, keepPrevious: true },
  );
  const allowed = new Set(offer.offered);
  const options = (devices.data?.data ?? [])
    .filter((d) => allowed.size === 0 || allowed.has(d.id))
    .map((d) => ({
      value: d.id,
      label: d.longOffline ? `${d.name} — ${t('availability.longOfflineReason')}` : d.name,
      disabled: d.longOffline,
    }));
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Radio.Group
        value={subset ? 'some' : 'all'}
        onChange={(e) => {
          const some = e.target.value === 'some';
          setSubset(some);
          if (!some) onChange([]);
        }}
        data-testid={`sales-composer-screens-mode-${offer.slotId}`}
        options={[
          { value: 'all', label: t('composer.screensAll') },
          { value: 'some', label: t('composer.screensSome') },
        ]}
      />
      {subset ? (
        <Select
          mode="multiple"
          value={value}
          onChange={onChange}
          options={options}
          loading={devices.isFetching}
          showSearch={{ filterOption: false, onSearch: setKeyword }}
          placeholder={t('composer.screensPick')}
          style={{ width: '100%' }}
          aria-label={t('composer.screens')}
          data-testid={`sales-composer-screens-${offer.slotId}`}
        />
      ) : null}
    </Space>
  );
}

/** 24 toggle buttons (one per hour) with presets; hours the goods does not offer are disabled. */
export function HoursStrip({
  value,
  offered,
  onChange,
}: {
  value: number[];
  offered: number[];
  onChange: (hours: number[]) => void;
}) {
  const { t } = useTranslation('sales');
  const allowed = new Set(offered.length > 0 ? offered : HOUR_PRESETS.allDay);
  const chosen = new Set(value);
  const preset = presetOf(value);
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Radio.Group
        value={preset}
        optionType="button"
        size="small"
        onChange={(e) => onChange(presetWithin(e.target.value as HourPreset, offered))}
        data-testid="sales-composer-hour-presets"
        options={(Object.keys(HOUR_PRESETS) as HourPreset[]).map((p) => ({
          value: p,
          label: t(`composer.preset.${p}`),
        }))}
      />
      <div role="group" aria-label={t('composer.hours')} style={{ display: 'flex', flexWrap: 'wrap', gap: 4 }}>
        {HOUR_PRESETS.allDay.map((h) => (
          <Button
            key={h}
            size="small"
            type={chosen.has(h) ? 'primary' : 'default'}
            aria-pressed={chosen.has(h)}
            disabled={!allowed.has(h)}
            onClick={() => onChange(toggleHour(value, h))}
            style={{ width: 40 }}
            title={`${String(h).padStart(2, '0')}:00–${String(h + 1).padStart(2, '0')}:00`}
            data-testid={`sales-composer-hour-${h}`}
          >
            {String(h).padStart(2, '0')}
          </Button>
        ))}
      </div>
    </Space>
  );
}

/** The quote of what is chosen: lines, list amount, discounts, total and the wallet's balance. */
function QuoteSummary({ quote, current }: { quote: SalesQuote; current: boolean }) {
  const { t, i18n } = useTranslation('sales');
  const language = i18n.language;
  const off = quoteDiscounts(quote);
  const conflicts = conflictLines(quote);
  const covered = balanceCovers(quote.available, quote.amount);
  return (
    <Spin spinning={!current}>
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Table
          rowKey="slotId"
          size="small"
          pagination={false}
          data-testid="sales-quote-lines"
          dataSource={quote.lines}
          columns={[
            { key: 'slot', dataIndex: 'slotName', title: t('composer.slot'), ellipsis: true },
            {
              key: 'method',
              dataIndex: 'salesMethod',
              title: t('composer.method'),
              width: 80,
              render: (v: 'cpt' | 'cpm') => <SalesMethodTag method={v} />,
            },
            {
              key: 'units',
              title: t('composer.units'),
              render: (_: unknown, l) =>
                l.salesMethod === 'cpm'
                  ? t('composer.unitsCpm', { k: l.impressionsK ?? 0 })
                  : t('composer.unitsCpt', {
                      rotations: l.rotations,
                      screens: l.screens,
                      days: l.days,
                      hours: l.hoursPerDay,
                    }),
            },
            {
              key: 'unitPrice',
              dataIndex: 'unitPrice',
              title: t('composer.unitPrice'),
              align: 'right',
              render: (v: number) => formatFen(v, language),
            },
            {
              key: 'amount',
              dataIndex: 'listAmount',
              title: t('composer.listAmount'),
              align: 'right',
              render: (v: number) => formatFen(v, language),
            },
          ]}
        />
        {conflicts.length > 0 ? (
          <Alert
            type="error"
            showIcon
            data-testid="sales-quote-conflict"
            title={t('composer.conflict')}
            description={conflicts
              .map((l) =>
                t('composer.conflictLine', { slot: l.slotName, bookable: l.bookable, rotations: l.rotations }),
              )
              .join(' ')}
          />
        ) : null}
        <Descriptions size="small" column={1} bordered>
          <Descriptions.Item label={t('composer.listAmount')}>
            <span data-testid="sales-quote-list">{formatFen(quote.listAmount, language)}</span>
          </Descriptions.Item>
          <Descriptions.Item
            label={
              quote.priceContract
                ? t('composer.contractDiscountOf', {
                    name: quote.priceContract.name,
                    discount: discountText(quote.priceContract.discount),
                  })
                : t('composer.contractDiscount')
            }
          >
            {off.contract > 0 ? `−${formatFen(off.contract, language)}` : t('composer.none')}
          </Descriptions.Item>
          <Descriptions.Item
            label={
              quote.coupon
                ? t('composer.couponDiscountOf', {
                    name: quote.coupon.name,
                    discount: discountText(quote.coupon.discount),
                  })
                : t('composer.couponDiscount')
            }
          >
            {off.coupon > 0 ? `−${formatFen(off.coupon, language)}` : t('composer.none')}
          </Descriptions.Item>
          <Descriptions.Item label={t('composer.total')}>
            <Typography.Text strong data-testid="sales-quote-total">
              {formatFen(quote.amount, language)}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('composer.available')}>
            <Typography.Text type={covered ? undefined : 'danger'} data-testid="sales-quote-available">
              {formatFen(quote.available, language)}
            </Typography.Text>
            {covered ? null : (
              <>
                {' '}
                <Link to={RECHARGE_PATH} data-testid="sales-quote-recharge">
                  {t('order.recharge')}
                </Link>
              </>
            )}
          </Descriptions.Item>
        </Descriptions>
      </Space>
    </Spin>
  );
}

const emptyState = (goodsId: string | null): ComposerState => ({
  advertiserId: null,
  goodsId,
  slotId: null,
  startDate: null,
  endDate: null,
  hours: [...HOUR_PRESETS.allDay],
  lines: [],
  couponId: null,
});

/**
 * The order composer (a drawer): the advertiser (staff), goods on sale or a slot directly
 * (yxf_new_operate_sales_manage), the period within the goods', the hours (a 24-cell strip
 * with presets), per line the screens, rotations or thousands of impressions, and its
 * availability; a coupon; the debounced quote (list price, price contract and coupon
 * discounts, total, the advertiser's available balance; a conflict shown before submitting).
 * Placing the order holds its inventory until `holdUntil`; Pay now freezes the amount.
 */
export function OrderComposer({
  open,
  goodsId,
  onClose,
  onPlaced,
}: {
  open: boolean;
  goodsId: string | null;
  onClose: () => void;
  onPlaced: (order: SalesOrder) => void;
}) {
  const { t, i18n } = useTranslation('sales');
  const language = i18n.language;
  const { message } = App.useApp();
  const can = useCan();
  const manage = can(Perm.salesManage);
  const { self } = useOrdersForSelf();
  const { zone, ready: zoneKnown, today } = useEnterpriseToday();
  const [state, setState] = useState<ComposerState>(() => emptyState(goodsId));
  const [by, setBy] = useState<'goods' | 'slot'>('goods');
  const [placed, setPlaced] = useState<SalesOrder | null>(null);
  const patch = (next: Partial<ComposerState>) => setState((s) => ({ ...s, ...next }));

  const advertisers = useCallQuery('salesAdvertiserOptions', {}, { enabled: open && !self, staleTime: 60_000 });
  const goodsList = useCallQuery(
    'salesGoodsList',
    { page: 1, size: 100, state: 'onSale' } as Req<Endpoints['salesGoodsList']>,
    { enabled: open && by === 'goods' },
  );
  const goodsInfo = useCallQuery(
    'salesGoodsInfo',
    { id: state.goodsId ?? '' },
    { enabled: open && Boolean(state.goodsId) },
  );
  const slotOptions = useCallQuery('salesSlotOptions', {}, { enabled: open && manage && by === 'slot' });
  const coupons = useCallQuery('salesCouponOptions', state.goodsId ? { goodsId: state.goodsId } : {}, {
    enabled: open,
  });
  const goods = state.goodsId ? goodsInfo.data : undefined;
  const slot = by === 'slot' ? slotOptions.data?.data.find((s) => s.id === state.slotId) : undefined;

  const offers: LineOffer[] = useMemo(() => {
    if (by === 'goods') return goods ? offersOfGoods(goods) : [];
    return slot
      ? [
          {
            slotId: slot.id,
            slotName: slot.name,
            salesMethod: slot.salesMethod,
            maxRotations: slot.maxRotations,
            offered: [],
          },
        ]
      : [];
  }, [by, goods, slot]);

  // The chosen goods (or slot) starts its lines, its period and its hours.
  const startKey = by === 'goods' ? (goods?.id ?? '') : (slot?.id ?? '');
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the goods or slot chosen changes, or the enterprise's today becomes known
  useEffect(() => {
    if (by === 'goods' && goods) {
      const [startDate, endDate] = defaultPeriod(goods, today());
      patch({
        lines: linesOfGoods(goods),
        startDate,
        endDate,
        hours: goods.hours.length > 0 ? [...goods.hours] : [...HOUR_PRESETS.allDay],
      });
    } else if (by === 'slot' && slot) {
      const start = today();
      patch({
        lines: [
          {
            slotId: slot.id,
            salesMethod: slot.salesMethod,
            deviceIds: [],
            rotations: 1,
            impressionsK: slot.salesMethod === 'cpm' ? 1 : null,
          },
        ],
        startDate: start,
        endDate: dayjs(start).add(6, 'day').format('YYYY-MM-DD'),
        hours: [...HOUR_PRESETS.allDay],
      });
    }
  }, [startKey, zoneKnown]);

  const built = composerRequest(by === 'goods' ? { ...state, slotId: null } : { ...state, goodsId: null }, !self);
  const request = built.ok ? built.request : null;
  const key = request ? JSON.stringify(request) : '';
  const settledKey = useDebounced(key, QUOTE_DEBOUNCE_MS);
  const quote = useCallQuery('salesQuote', (settledKey ? JSON.parse(settledKey) : {}) as Req<Endpoints['salesQuote']>, {
    enabled: open && Boolean(settledKey) && !placed,
    keepPrevious: true,
    retry: false,
  });
  const current =
    Boolean(request) && settledKey === key && quote.isSuccess && !quote.isFetching && !quote.isPlaceholderData;
  const conflict = quote.data ? conflictLines(quote.data).length > 0 : false;

  const create = useCallMutation('salesOrderCreate', {
    onSuccess: (order) => {
      void message.success(t('composer.placedToast', { no: order.no }));
      setPlaced(order);
    },
  });

  const setLine = (slotId: string, next: Partial<ComposerLine>) =>
    patch({ lines: state.lines.map((l) => (l.slotId === slotId ? { ...l, ...next } : l)) });

  const period = goods ? { min: goods.startDate, max: goods.endDate } : { min: today(), max: '9999-12-31' };
  const outside = (d: Dayjs) => {
    const day = d.format('YYYY-MM-DD');
    return day < period.min || day > period.max || day < today();
  };

  const footer = placed ? null : (
    <Space style={{ justifyContent: 'flex-end', width: '100%' }}>
      <Button onClick={onClose} data-testid="sales-composer-cancel">
        {t('order.back')}
      </Button>
      <Button
        type="primary"
        disabled={!current || conflict || create.isPending}
        loading={create.isPending}
        onClick={() => request && create.mutate(request as Req<Endpoints['salesOrderCreate']>)}
        data-testid="sales-composer-submit"
      >
        {t('composer.submit')}
      </Button>
    </Space>
  );

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('composer.title')}
      size={1100}
      destroyOnHidden
      footer={footer}
      data-testid="sales-composer"
    >
      {placed ? (
        <Result
          status="success"
          title={t('composer.placed', { no: placed.no })}
          subTitle={placed.holdUntil ? t('composer.heldUntil', { at: formatTime(placed.holdUntil) }) : undefined}
          extra={[
            placed.state === 'unpaid' && placed.hasPermission ? (
              <PayOrderButton key="pay" order={placed} onPaid={onPlaced} />
            ) : null,
            <Button key="open" onClick={() => onPlaced(placed)} data-testid="sales-composer-open">
              {t('composer.openOrder')}
            </Button>,
          ]}
          data-testid="sales-composer-placed"
        />
      ) : (
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={14}>
            <Form layout="vertical" component="div">
              {!self ? (
                <Form.Item label={t('composer.advertiser')} required>
                  <Select
                    value={state.advertiserId ?? undefined}
                    onChange={(v: string) => patch({ advertiserId: v })}
                    showSearch={{ optionFilterProp: 'label' }}
                    loading={advertisers.isPending}
                    placeholder={t('composer.advertiserPick')}
                    options={(advertisers.data?.data ?? []).map((a) => ({
                      value: a.id,
                      label: a.name ? `${a.name} (${a.loginName})` : a.loginName,
                    }))}
                    data-testid="sales-composer-advertiser"
                  />
                </Form.Item>
              ) : null}
              {manage ? (
                <Form.Item label={t('composer.orderBy')}>
                  <Radio.Group
                    value={by}
                    onChange={(e) => {
                      setBy(e.target.value);
                      patch({ goodsId: null, slotId: null, lines: [], couponId: null });
                    }}
                    options={[
                      { value: 'goods', label: t('composer.byGoods') },
                      { value: 'slot', label: t('composer.bySlot') },
                    ]}
                    data-testid="sales-composer-by"
                  />
                </Form.Item>
              ) : null}
              {by === 'goods' ? (
                <Form.Item label={t('composer.goods')} required>
                  <Select
                    value={state.goodsId ?? undefined}
                    onChange={(v: string) => patch({ goodsId: v, couponId: null })}
                    showSearch={{ optionFilterProp: 'label' }}
                    loading={goodsList.isPending}
                    placeholder={t('composer.goodsPick')}
                    options={[
                      ...(goodsList.data?.data ?? []).map((g) => ({ value: g.id, label: g.name })),
                      ...(goods && !goodsList.data?.data.some((g) => g.id === goods.id)
                        ? [{ value: goods.id, label: goods.name }]
                        : []),
                    ]}
                    data-testid="sales-composer-goods"
                  />
                </Form.Item>
              ) : (
                <Form.Item label={t('composer.slot')} required>
                  <Select
                    value={state.slotId ?? undefined}
                    onChange={(v: string) => patch({ slotId: v })}
                    showSearch={{ optionFilterProp: 'label' }}
                    loading={slotOptions.isPending}
                    placeholder={t('composer.slotPick')}
                    options={(slotOptions.data?.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
                    data-testid="sales-composer-slot"
                  />
                </Form.Item>
              )}
              {goods && goods.state !== 'onSale' ? (
                <Alert type="warning" showIcon title={t('composer.notOnSale')} style={{ marginBottom: 12 }} />
              ) : null}
              {offers.length > 0 ? (
                <>
                  <Form.Item
                    label={t('composer.period')}
                    required
                    extra={
                      goods
                        ? t('composer.periodOfGoods', { start: goods.startDate, end: goods.endDate, zone })
                        : t('composer.periodDays', { zone })
                    }
                  >
                    <DatePicker.RangePicker
                      value={state.startDate && state.endDate ? [dayjs(state.startDate), dayjs(state.endDate)] : null}
                      disabledDate={outside}
                      allowClear={false}
                      onChange={(range) =>
                        patch({
                          startDate: range?.[0]?.format('YYYY-MM-DD') ?? null,
                          endDate: range?.[1]?.format('YYYY-MM-DD') ?? null,
                        })
                      }
                      data-testid="sales-composer-period"
                    />
                  </Form.Item>
                  <Form.Item label={t('composer.hours')} required>
                    <HoursStrip
                      value={state.hours}
                      offered={goods?.hours ?? []}
                      onChange={(hours) => patch({ hours })}
                    />
                  </Form.Item>
                  {offers.map((offer) => {
                    const line = state.lines.find((l) => l.slotId === offer.slotId);
                    if (!line) return null;
                    return (
                      <Card
                        key={offer.slotId}
                        size="small"
                        style={{ marginBottom: 12 }}
                        title={
                          <Space>
                            {offer.slotName}
                            <SalesMethodTag method={offer.salesMethod} />
                          </Space>
                        }
                        data-testid={`sales-composer-line-${offer.slotId}`}
                      >
                        <Form.Item label={t('composer.screens')}>
                          <ScreensField
                            offer={offer}
                            value={line.deviceIds}
                            onChange={(deviceIds) => setLine(offer.slotId, { deviceIds })}
                          />
                        </Form.Item>
                        <Space wrap size={24}>
                          <Form.Item label={t('composer.rotations', { max: offer.maxRotations })}>
                            <InputNumber
                              min={1}
                              max={offer.maxRotations}
                              precision={0}
                              value={line.rotations}
                              onChange={(v) => setLine(offer.slotId, { rotations: v ?? 1 })}
                              data-testid={`sales-composer-rotations-${offer.slotId}`}
                            />
                          </Form.Item>
                          {offer.salesMethod === 'cpm' ? (
                            <Form.Item label={t('composer.impressionsK')}>
                              <InputNumber
                                min={IMPRESSIONS_K_MIN}
                                max={IMPRESSIONS_K_MAX}
                                precision={0}
                                value={line.impressionsK}
                                onChange={(v) => setLine(offer.slotId, { impressionsK: v })}
                                data-testid={`sales-composer-impressions-${offer.slotId}`}
                              />
                            </Form.Item>
                          ) : null}
                        </Space>
                        <AvailabilityPanel
                          query={
                            state.startDate && state.endDate && state.endDate >= state.startDate
                              ? {
                                  slotId: offer.slotId,
                                  deviceIds: line.deviceIds.length > 0 ? line.deviceIds : offer.offered,
                                  startDate: state.startDate,
                                  endDate: state.endDate,
                                  hours: state.hours.length === 24 ? [] : state.hours,
                                }
                              : null
                          }
                          rotations={offer.salesMethod === 'cpt' ? line.rotations : null}
                        />
                      </Card>
                    );
                  })}
                  <Form.Item label={t('composer.coupon')}>
                    <Select
                      allowClear
                      value={state.couponId ?? undefined}
                      onChange={(v: string | undefined) => patch({ couponId: v ?? null })}
                      loading={coupons.isPending}
                      placeholder={t('composer.couponNone')}
                      options={(coupons.data?.data ?? []).map((c) => ({
                        value: c.id,
                        label: `${c.name} · ${discountText(c.discount)}`,
                      }))}
                      data-testid="sales-composer-coupon"
                    />
                  </Form.Item>
                </>
              ) : null}
            </Form>
          </Col>
          <Col xs={24} xl={10}>
            <Card size="small" title={t('composer.quote')} data-testid="sales-quote">
              {!request ? (
                <Empty
                  image={Empty.PRESENTED_IMAGE_SIMPLE}
                  description={t(`composer.missing.${built.ok ? 'goods' : built.missing}`)}
                  data-testid="sales-quote-missing"
                />
              ) : quote.data ? (
                <QuoteSummary quote={quote.data} current={current} />
              ) : quote.isError ? (
                <Typography.Text type="danger" data-testid="sales-quote-failed">
                  {t('composer.quoteFailed')}
                </Typography.Text>
              ) : (
                <Spin />
              )}
              {current && quote.data ? (
                <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
                  {t('composer.holdHint', { amount: formatFen(quote.data.amount, language) })}
                </Typography.Paragraph>
              ) : null}
            </Card>
          </Col>
        </Row>
      )}
    </Drawer>
  );
}
