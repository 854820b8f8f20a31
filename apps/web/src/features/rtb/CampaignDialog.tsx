import {
  AD_MAX_MATERIALS,
  ALL_HOURS,
  AMOUNT_MAX_FEN,
  type Endpoints,
  ErrorCode,
  fenToYuan,
  formatFen,
  Perm,
  type Req,
  RTB_CPM_MAX_FEN,
  RTB_NAME_MAX,
  RTB_PACINGS,
  type RtbCampaign,
  type RtbPacing,
  yuanToFen,
} from '@marquee/protocol';
import { Alert, Checkbox, Col, DatePicker, Form, Input, Radio, Row, Select, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client';
import { useCallQuery } from '../../api/queries';
import { FormDialog } from '../../components/FormDialog';
import { amountRule, checkYuan } from '../../components/money';
import { maxLengthRule, requiredRule } from '../../components/zodRule';
import { useCan } from '../../session/useCan';
import { AdMaterialsField, type PickedMaterial } from '../ads/AdMaterialsField';
import { HoursStrip, useOrdersForSelf } from '../sales/OrderComposer';

export interface CampaignValues {
  name: string;
  advertiserId?: string;
  bidYuan: string;
  totalYuan: string;
  dailyYuan?: string;
  period: [Dayjs, Dayjs];
  hours: number[];
  weekdays: number[];
  pacing: RtbPacing;
  deviceIds: string[];
  groupIds: string[];
  tagIds: string[];
  regionCodes: string[];
  /** The ad's content: kept as it is (editing), materials of the library, or a layout. */
  content: 'keep' | 'materials' | 'layout';
  materials?: PickedMaterial[];
  layoutId?: string;
}

type SaveRequest = Req<Endpoints['rtbCampaignSave']>;

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

/** Typed yuan as fen (the rules have checked it); null when empty or unreadable. */
export function fenOf(text: string | undefined): number | null {
  if (!text || text.trim() === '') return null;
  const parsed = yuanToFen(text.trim());
  return parsed.ok ? parsed.fen : null;
}

/** What the form sends: amounts in integer fen, all 24 hours or 7 days as none (= all). */
export function campaignRequest(v: CampaignValues, editing: RtbCampaign | null, self: boolean): SaveRequest {
  const content =
    v.content === 'keep' && editing
      ? { materialIds: editing.materialIds, layoutId: editing.layoutId }
      : v.content === 'layout'
        ? { materialIds: [], layoutId: v.layoutId ?? null }
        : { materialIds: (v.materials ?? []).map((m) => m.id), layoutId: null };
  const hours = v.hours ?? [];
  const weekdays = [...(v.weekdays ?? [])].sort((a, b) => a - b);
  return {
    ...(editing ? { id: editing.id } : {}),
    ...(!editing && !self && v.advertiserId ? { advertiserId: v.advertiserId } : {}),
    name: v.name.trim(),
    bidCpm: fenOf(v.bidYuan) ?? 0,
    totalBudget: fenOf(v.totalYuan) ?? 0,
    dailyBudget: fenOf(v.dailyYuan),
    startDate: v.period[0].format('YYYY-MM-DD'),
    endDate: v.period[1].format('YYYY-MM-DD'),
    hours: hours.length === 24 ? [] : [...hours].sort((a, b) => a - b),
    weekdays: weekdays.length === 7 ? [] : weekdays,
    pacing: v.pacing,
    targets: {
      deviceIds: v.deviceIds ?? [],
      groupIds: v.groupIds ?? [],
      tagIds: v.tagIds ?? [],
      regionCodes: v.regionCodes ?? [],
    },
    ...content,
  };
}

/** A bid typed in yuan per thousand impressions: 0.01 to 10000, two decimals at most. */
export function bidRule(t: TFunction) {
  return {
    validator: async (_rule: unknown, value: unknown) => {
      if (value === undefined || value === null || String(value).trim() === '') return;
      const parsed = yuanToFen(String(value).trim());
      if (!parsed.ok && parsed.reason === 'decimals') throw new Error(t('twoDecimals', { ns: 'validation' }));
      if (!parsed.ok || parsed.fen < 1 || parsed.fen > RTB_CPM_MAX_FEN)
        throw new Error(t('form.bidRange', { ns: 'rtb' }));
    },
  };
}

/** The daily budget is at most the total (both read from the form when validating). */
function dailyWithinTotal(t: TFunction, total: () => string | undefined) {
  return {
    validator: async (_rule: unknown, value: unknown) => {
      const daily = fenOf(value === undefined || value === null ? undefined : String(value));
      const whole = fenOf(total());
      if (daily !== null && whole !== null && daily > whole) {
        throw new Error(t('dailyBudgetAboveTotal', { ns: 'validation' }));
      }
    },
  };
}

/** The hours strip as a form control (empty or all 24: every hour). */
function HoursField({ value, onChange }: { value?: number[]; onChange?: (hours: number[]) => void }) {
  return <HoursStrip value={value ?? []} offered={[]} onChange={(hours) => onChange?.(hours)} />;
}

const budgetCheck = (text: string) => checkYuan(text, { maxFen: AMOUNT_MAX_FEN });
/** The server's refusals the dialog explains beside the form (the toast says them too). */
const EXPLAINED: Record<number, string> = {
  [ErrorCode.INSUFFICIENT_BALANCE]: 'refusal.balance',
  [ErrorCode.RTB_BUDGET_BELOW_COMMITTED]: 'refusal.belowCommitted',
};

/**
 * An RTB campaign's form (rtb.campaignSave): name, advertiser (staff pick one they see; an
 * advertiser is itself), the bid per thousand impressions in yuan with the RTB slots' floors
 * as a hint, total and optional daily budget in yuan (sent as fen; daily at most the total),
 * period, hours and weekdays (none: all), pacing, the screens it bids for (none: every RTB
 * screen) and its content (the library's materials or a layout; editing may keep it). Creating
 * freezes the total budget: a short balance is explained in the dialog.
 */
export function CampaignDialog({
  open,
  editing,
  onClose,
}: {
  open: boolean;
  editing: RtbCampaign | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation(['rtb', 'sales', 'validation']);
  const language = i18n.language;
  const can = useCan();
  const [form] = Form.useForm<CampaignValues>();
  const { self } = useOrdersForSelf();
  const [refusal, setRefusal] = useState<string | null>(null);
  const content = Form.useWatch('content', form) ?? (editing ? 'keep' : 'materials');
  const bid = fenOf(Form.useWatch('bidYuan', form));
  const options = useCallQuery('rtbTargetOptions', {}, { enabled: open, staleTime: 60_000 });
  const advertisers = useCallQuery('salesAdvertiserOptions', {}, { enabled: open && !self, staleTime: 60_000 });
  const layouts = useCallQuery('templatePage', { page: 1, size: 500 } as Req<Endpoints['templatePage']>, {
    enabled: open && content === 'layout' && can(Perm.template),
  });
  const o = options.data;
  const minFloor = o?.minFloorCpm ?? null;
  const maxFloor = o?.maxFloorCpm ?? null;
  const today = dayjs().startOf('day');
  const required = requiredRule(t);
  const chosen = { required: true, message: t('required', { ns: 'validation' }) };

  const floorsHint =
    minFloor === null || maxFloor === null
      ? t('form.bidNoFloors')
      : t('form.bidFloors', { min: formatFen(minFloor, language), max: formatFen(maxFloor, language) });

  return (
    <FormDialog<CampaignValues>
      open={open}
      form={form}
      title={editing ? t('campaign.editTitle', { name: editing.name }) : t('campaign.new')}
      onClose={() => {
        setRefusal(null);
        onClose();
      }}
      width={760}
      initialValues={{
        name: '',
        bidYuan: '',
        totalYuan: '',
        dailyYuan: '',
        period: [today, today.add(6, 'day')],
        hours: ALL_HOURS.slice(),
        weekdays: [],
        pacing: 'even',
        deviceIds: [],
        groupIds: [],
        tagIds: [],
        regionCodes: [],
        content: 'materials',
        materials: [],
      }}
      values={
        editing
          ? {
              name: editing.name,
              bidYuan: fenToYuan(editing.bidCpm),
              totalYuan: fenToYuan(editing.totalBudget),
              dailyYuan: editing.dailyBudget === null ? '' : fenToYuan(editing.dailyBudget),
              period: [dayjs(editing.startDate), dayjs(editing.endDate)],
              hours: editing.hours.length === 0 ? ALL_HOURS.slice() : editing.hours,
              weekdays: editing.weekdays,
              pacing: editing.pacing,
              deviceIds: editing.targets.deviceIds,
              groupIds: editing.targets.groupIds,
              tagIds: editing.targets.tagIds,
              regionCodes: editing.targets.regionCodes,
              content: editing.materialIds.length > 0 || editing.layoutId ? 'keep' : 'materials',
            }
          : undefined
      }
      submit={async (v) => {
        setRefusal(null);
        try {
          return await call('rtbCampaignSave', campaignRequest(v, editing, self));
        } catch (err) {
          if (err instanceof ApiError && EXPLAINED[err.code]) setRefusal(t(EXPLAINED[err.code]));
          throw err;
        }
      }}
      success={editing ? t('campaign.saved') : t('campaign.created')}
      invalidates={['rtb', 'finance', 'ads']}
      okText={t('common.save', { ns: 'sales' })}
      cancelText={t('common.cancel', { ns: 'sales' })}
      testId="rtb-campaign-form"
      submitTestId="rtb-campaign-submit"
    >
      {refusal ? (
        <Alert type="error" showIcon title={refusal} style={{ marginBottom: 12 }} data-testid="rtb-campaign-refusal" />
      ) : null}
      {!editing ? <Alert type="info" showIcon title={t('form.freezeHint')} style={{ marginBottom: 12 }} /> : null}
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="name" label={t('campaign.name')} rules={[required, maxLengthRule(t, RTB_NAME_MAX)]}>
            <Input maxLength={RTB_NAME_MAX} data-testid="rtb-campaign-name" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          {editing ? (
            <Form.Item label={t('campaign.advertiser')}>
              <Typography.Text>{editing.advertiserName}</Typography.Text>
            </Form.Item>
          ) : !self ? (
            <Form.Item name="advertiserId" label={t('campaign.advertiser')} rules={[chosen]}>
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                loading={advertisers.isPending}
                placeholder={t('form.advertiserPick')}
                options={(advertisers.data?.data ?? []).map((a) => ({
                  value: a.id,
                  label: a.name ? `${a.name} (${a.loginName})` : a.loginName,
                }))}
                data-testid="rtb-campaign-advertiser"
              />
            </Form.Item>
          ) : null}
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="bidYuan" label={t('campaign.bidCpm')} rules={[required, bidRule(t)]} extra={floorsHint}>
            <Input
              prefix="¥"
              suffix={t('form.perThousand')}
              inputMode="decimal"
              maxLength={12}
              data-testid="rtb-campaign-bid"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="totalYuan" label={t('campaign.totalBudget')} rules={[required, amountRule(budgetCheck, t)]}>
            <Input prefix="¥" inputMode="decimal" maxLength={16} data-testid="rtb-campaign-total" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item
            name="dailyYuan"
            label={t('campaign.dailyBudget')}
            dependencies={['totalYuan']}
            extra={t('form.dailyHint')}
            rules={[
              amountRule(budgetCheck, t),
              ({ getFieldValue }) => dailyWithinTotal(t, () => getFieldValue('totalYuan')),
            ]}
          >
            <Input prefix="¥" inputMode="decimal" maxLength={16} data-testid="rtb-campaign-daily" />
          </Form.Item>
        </Col>
      </Row>
      {bid !== null && minFloor !== null && bid < minFloor ? (
        <Alert
          type="warning"
          showIcon
          title={t('form.bidBelowFloors', { min: formatFen(minFloor, language) })}
          style={{ marginBottom: 12 }}
          data-testid="rtb-campaign-below-floors"
        />
      ) : null}
      <Form.Item name="period" label={t('campaign.period')} rules={[chosen]} extra={t('form.periodHint')}>
        <DatePicker.RangePicker allowClear={false} data-testid="rtb-campaign-period" />
      </Form.Item>
      <Form.Item name="hours" label={t('campaign.hours')} extra={t('form.hoursHint')}>
        <HoursField />
      </Form.Item>
      <Form.Item name="weekdays" label={t('campaign.weekdays')} extra={t('form.weekdaysHint')}>
        <Checkbox.Group
          options={WEEKDAYS.map((d) => ({ value: d, label: t(`weekday.${d}`) }))}
          data-testid="rtb-campaign-weekdays"
        />
      </Form.Item>
      <Form.Item name="pacing" label={t('campaign.pacing')}>
        <Radio.Group data-testid="rtb-campaign-pacing">
          {RTB_PACINGS.map((p) => (
            <Radio key={p} value={p} style={{ display: 'flex', marginBottom: 4 }}>
              {t(`pacing.${p}`)}
              <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
                {t(`pacing.${p}Hint`)}
              </Typography.Text>
            </Radio>
          ))}
        </Radio.Group>
      </Form.Item>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('form.targetsHint')}
      </Typography.Paragraph>
      <Row gutter={16}>
        {(
          [
            ['deviceIds', 'devices', (o?.devices ?? []).map((d) => ({ value: d.id, label: d.name }))],
            ['groupIds', 'groups', (o?.groups ?? []).map((g) => ({ value: g.id, label: g.name }))],
            ['tagIds', 'tags', (o?.tags ?? []).map((g) => ({ value: g.id, label: g.name }))],
            ['regionCodes', 'regions', (o?.regions ?? []).map((r) => ({ value: r.code, label: r.name }))],
          ] as const
        ).map(([name, label, choices]) => (
          <Col xs={24} md={12} key={name}>
            <Form.Item name={name} label={t(`target.${label}`)}>
              <Select
                mode="multiple"
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                loading={options.isPending}
                placeholder={t('target.any')}
                notFoundContent={options.isPending ? undefined : t('target.none')}
                options={choices}
                data-testid={`rtb-campaign-${label}`}
              />
            </Form.Item>
          </Col>
        ))}
      </Row>
      <Form.Item name="content" label={t('campaign.content')} extra={editing ? t('form.contentReviewHint') : undefined}>
        <Radio.Group
          data-testid="rtb-campaign-content"
          options={[
            ...(editing && (editing.materialIds.length > 0 || editing.layoutId)
              ? [{ value: 'keep', label: t('form.contentKeep', { name: editing.adName ?? editing.name }) }]
              : []),
            { value: 'materials', label: t('form.contentMaterials') },
            { value: 'layout', label: t('form.contentLayout') },
          ]}
        />
      </Form.Item>
      {content === 'materials' ? (
        <Form.Item
          name="materials"
          label={t('form.materials', { max: AD_MAX_MATERIALS })}
          rules={[
            {
              validator: async (_r, v: PickedMaterial[] | undefined) => {
                if (!v || v.length === 0) throw new Error(t('form.materialsRequired'));
                if (v.length > AD_MAX_MATERIALS) throw new Error(t('form.materialsTooMany', { max: AD_MAX_MATERIALS }));
              },
            },
          ]}
        >
          <AdMaterialsField />
        </Form.Item>
      ) : content === 'layout' ? (
        <Form.Item
          name="layoutId"
          label={t('form.layout')}
          rules={[{ required: true, message: t('form.layoutRequired') }]}
        >
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            loading={layouts.isFetching}
            notFoundContent={layouts.isFetching ? undefined : t('form.noLayouts')}
            options={(layouts.data?.data ?? []).map((l) => ({ value: l.id, label: l.name }))}
            data-testid="rtb-campaign-layout"
          />
        </Form.Item>
      ) : null}
    </FormDialog>
  );
}
