import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import {
  AD_MAX_PERIODS,
  AD_NAME_MAX,
  AD_PLAY_COUNT_MAX,
  AD_PLAY_COUNT_MIN,
  AD_TYPES,
  type AdBody,
  type AdInfo,
  type AdTargetKind,
  adBodySchema,
  issueMessage,
  monitorUrlValid,
  Perm,
} from '@marquee/protocol';
import {
  App,
  Button,
  Card,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Radio,
  Select,
  Skeleton,
  Space,
  TimePicker,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { usePageLeaveTip } from '../../components/leaveTip';
import { requiredRule, validationMessage } from '../../components/zodRule';
import { useCan } from '../../session/useCan';
import { AdMaterialsField, type PickedMaterial } from './AdMaterialsField';
import { AdTargetsFields } from './AdTargetsFields';
import { usePlanOptions } from './plans';

interface Values {
  name: string;
  type: AdBody['type'];
  planId?: string;
  range?: [Dayjs, Dayjs];
  periods?: { range?: [Dayjs, Dayjs] }[];
  strategy: 'perDay' | 'perLoop';
  playsMin: number;
  playsMax: number;
  link?: string;
  monitorUrl?: string;
  content: 'materials' | 'layout';
  materials?: PickedMaterial[];
  layoutId?: string;
  deviceIds?: string[];
  groupIds?: string[];
  tagIds?: string[];
  deptIds?: string[];
  spliceIds?: string[];
}

const target = (v: Values, kept: Pick<AdInfo, 'targets'> | undefined, kind: AdTargetKind): string[] =>
  v[kind] ?? kept?.targets[kind] ?? [];

/**
 * The body the server takes, from the form. What the page does not show the caller (the plan
 * without the plan permission, a kind of target whose picker it may not load) is kept as the
 * edited ad has it.
 */
export function adBody(v: Values, kept?: Pick<AdInfo, 'planId' | 'targets'>): AdBody {
  const materials = v.content === 'materials';
  return {
    name: v.name?.trim() ?? '',
    type: v.type,
    planId: v.planId || kept?.planId || undefined,
    startAt: v.range?.[0] ? v.range[0].format() : '',
    endAt: v.range?.[1] ? v.range[1].format() : '',
    strategy: v.strategy,
    playsMin: v.playsMin,
    playsMax: v.playsMax,
    periods: (v.periods ?? [])
      .filter((p) => p.range?.[0] && p.range[1])
      .map((p) => ({ start: p.range?.[0].format('HH:mm') ?? '', end: p.range?.[1].format('HH:mm') ?? '' })),
    link: v.link?.trim() ?? '',
    monitorUrl: v.monitorUrl?.trim() || null,
    materialIds: materials ? (v.materials ?? []).map((m) => m.id) : [],
    layoutId: materials ? null : (v.layoutId ?? null),
    targets: {
      deviceIds: target(v, kept, 'deviceIds'),
      groupIds: target(v, kept, 'groupIds'),
      tagIds: target(v, kept, 'tagIds'),
      deptIds: target(v, kept, 'deptIds'),
      spliceIds: target(v, kept, 'spliceIds'),
    },
  };
}

/**
 * The ad's period as typed or picked: the date and the time of day (RANGE_FORMAT; the
 * placeholders say so). A picked day starts at 00:00 and ends at 23:59, and an end at 00:00 is
 * read as the end of that day: the end day is played whole (issue 25: the end defaulted to
 * 00:00 and dropped the last day).
 */
export const RANGE_FORMAT = 'YYYY-MM-DD HH:mm';
const DAY_START = dayjs('00:00', 'HH:mm');
const DAY_END = dayjs('23:59', 'HH:mm');

export function wholeEndDay(range: [Dayjs | null, Dayjs | null] | null | undefined) {
  const end = range?.[1];
  if (!range || !end || end.hour() !== 0 || end.minute() !== 0) return range;
  return [range[0], end.hour(23).minute(59).second(0).millisecond(0)] as [Dayjs | null, Dayjs | null];
}

/** The messages of the body's time-period issues (overlaps, order...), in the reader's words. */
function periodIssuesOf(body: AdBody, text: (issue: Parameters<typeof issueMessage>[0]) => string): string[] {
  const parsed = adBodySchema.safeParse(body);
  if (parsed.success) return [];
  return [...new Set(parsed.error.issues.filter((i) => i.path[0] === 'periods').map(text))];
}

/** Where each issue of the body's schema is shown on the form. */
const FIELD_OF: Record<string, string> = {
  startAt: 'range',
  endAt: 'range',
  materialIds: 'materials',
  layoutId: 'layoutId',
  periods: 'periods',
};
/** The form's fields top to bottom (the first marked one is scrolled to). */
const FORM_ORDER = [
  'name',
  'type',
  'planId',
  'range',
  'periods',
  'playsMin',
  'playsMax',
  'link',
  'monitorUrl',
  'materials',
  'layoutId',
];
/** The time periods' block (scrolled to when one of its periods is wrong). */
const PERIODS_ID = 'ad-edit-periods';

/**
 * Creates an ad, or edits the one of `?id=` (/advert/edit, not cached): name, type, plan (the
 * default preselected), period, time periods of the day, play strategy and counts, link,
 * monitoring URL, content (materials from the library, or a layout) and targets (devices,
 * groups, tags, departments, split screens: those the caller's permissions let it pick). The
 * form is checked with the protocol's own schema before it is sent; the server's errors show
 * as toasts. Leaving with unsaved changes asks first.
 */
export default function AdEditPage() {
  const { t } = useTranslation(['ads', 'validation']);
  const { message } = App.useApp();
  const navigate = useNavigate();
  const can = useCan();
  const [params] = useSearchParams();
  const id = params.get('id');
  const [form] = Form.useForm<Values>();
  const [dirty, setDirty] = useState(false);
  const [periodIssues, setPeriodIssues] = useState<string[]>([]);
  const content = Form.useWatch('content', form) ?? 'materials';
  const plans = usePlanOptions(can(Perm.advPlan));
  const layouts = useCallQuery('templatePage', { page: 1, size: 500 }, { enabled: can(Perm.template) });
  const existing = useCallQuery('adInfo', { id: id ?? '' }, { enabled: id !== null });

  useEffect(() => {
    const ad = existing.data;
    if (!ad) return;
    form.setFieldsValue({
      name: ad.name,
      type: ad.type,
      planId: ad.planId,
      range: [dayjs(ad.startAt), dayjs(ad.endAt)],
      periods: ad.periods.map((p) => ({ range: [dayjs(p.start, 'HH:mm'), dayjs(p.end, 'HH:mm')] })),
      strategy: ad.strategy,
      playsMin: ad.playsMin,
      playsMax: ad.playsMax,
      link: ad.link,
      monitorUrl: ad.monitorUrl ?? '',
      content: ad.layoutId ? 'layout' : 'materials',
      materials: ad.materials.map((m) => ({ id: m.id, name: m.name })),
      layoutId: ad.layoutId ?? undefined,
      ...ad.targets,
    });
    setDirty(false);
  }, [existing.data, form]);
  useEffect(() => {
    if (id !== null || !plans.data || form.getFieldValue('planId')) return;
    const preset = plans.data.find((p) => p.isDefault);
    if (preset) form.setFieldValue('planId', preset.value);
  }, [plans.data, id, form]);

  const saved = () => {
    setDirty(false);
    // the leave tip is off once the saved state is rendered
    setTimeout(() => navigate('/advert'), 0);
  };
  const create = useCallMutation('adCreate', { success: t('edit.created'), onSuccess: saved });
  const update = useCallMutation('adUpdate', { success: t('edit.updated'), onSuccess: saved });
  const saving = create.isPending || update.isPending;
  usePageLeaveTip(dirty && !saving);

  /** Save did not go: say so where the reader is, and bring the first error into view. */
  const showInvalid = (first: string | undefined) => {
    void message.error(t('edit.invalid'));
    if (first === 'periods') document.getElementById(PERIODS_ID)?.scrollIntoView?.({ block: 'center' });
    else if (first) form.scrollToField(first as keyof Values, { block: 'center' });
  };

  const submit = (v: Values) => {
    const body = adBody(v, existing.data);
    const parsed = adBodySchema.safeParse(body);
    setPeriodIssues([]);
    if (!parsed.success) {
      const byField = new Map<string, string>();
      const periodMessages: string[] = [];
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? '');
        const text = validationMessage(t, issueMessage(issue));
        if (key === 'periods') periodMessages.push(text);
        else if (!byField.has(FIELD_OF[key] ?? key)) byField.set(FIELD_OF[key] ?? key, text);
      }
      setPeriodIssues([...new Set(periodMessages)]);
      form.setFields([...byField].map(([name, text]) => ({ name: name as keyof Values, errors: [text] })));
      // The first marked field in the form's order.
      const marked = new Set([...byField.keys(), ...(periodMessages.length > 0 ? ['periods'] : [])]);
      showInvalid(FORM_ORDER.find((name) => marked.has(name)) ?? [...marked][0]);
      return;
    }
    if (id) update.mutate({ ...body, id });
    else create.mutate(body);
  };

  if (id !== null && !existing.data) {
    return <Card>{existing.isError ? t('ad.loadFailed') : <Skeleton active />}</Card>;
  }
  const required = requiredRule(t);
  return (
    <div className="mq-view mq-ad-edit" data-testid="ad-edit-page">
      <Card size="small" title={t(id ? 'edit.editTitle' : 'edit.newTitle')}>
        <Form<Values>
          form={form}
          name="ad-edit"
          layout="vertical"
          style={{ maxWidth: 760 }}
          disabled={saving}
          initialValues={{ type: 'common', strategy: 'perDay', playsMin: 1, playsMax: 1, content: 'materials' }}
          scrollToFirstError={{ block: 'center' }}
          onValuesChange={(changed: Partial<Values>) => {
            setDirty(true);
            // A shown period issue follows the periods as they are edited or removed (issue 25: an
            // overlap stayed after both periods were deleted).
            if ('periods' in changed && periodIssues.length > 0) {
              const text = (issue: Parameters<typeof issueMessage>[0]) => validationMessage(t, issueMessage(issue));
              setPeriodIssues(periodIssuesOf(adBody(form.getFieldsValue(true), existing.data), text));
            }
          }}
          onFinish={submit}
          // The rules' errors: antd scrolls to the first (scrollToFirstError); the toast says why nothing was saved.
          onFinishFailed={() => void message.error(t('edit.invalid'))}
        >
          {existing.data?.slotId ? (
            <Form.Item label={t('ad.field.slot')}>
              <span data-testid="ad-edit-slot">
                {existing.data.slot?.name ?? existing.data.slotId}
                {existing.data.source === 'order' && existing.data.slot?.orderId ? (
                  <>
                    {' · '}
                    <Link to={`/operate/orderDetail?id=${encodeURIComponent(existing.data.slot.orderId)}`}>
                      {t('ad.orderLink', { no: existing.data.slot.orderNo ?? existing.data.slot.orderId })}
                    </Link>
                  </>
                ) : null}
              </span>
            </Form.Item>
          ) : null}
          <Form.Item name="name" label={t('ad.field.name')} rules={[required]}>
            <Input maxLength={AD_NAME_MAX} showCount data-testid="ad-edit-name" />
          </Form.Item>
          <Form.Item name="type" label={t('ad.field.type')} rules={[{ required: true }]}>
            <Select options={AD_TYPES.map((v) => ({ value: v, label: t(`type.${v}`) }))} data-testid="ad-edit-type" />
          </Form.Item>
          {can(Perm.advPlan) ? (
            <Form.Item name="planId" label={t('ad.field.plan')}>
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                loading={plans.isFetching}
                options={plans.data ?? []}
                data-testid="ad-edit-plan"
              />
            </Form.Item>
          ) : null}
          <Form.Item
            name="range"
            label={t('ad.field.period')}
            rules={[{ required: true, message: t('required', { ns: 'validation' }) }]}
            normalize={wholeEndDay}
          >
            <DatePicker.RangePicker
              showTime={{ format: 'HH:mm', defaultOpenValue: [DAY_START, DAY_END] }}
              format={RANGE_FORMAT}
              placeholder={[t('edit.rangeStart'), t('edit.rangeEnd')]}
              data-testid="ad-edit-range"
            />
          </Form.Item>
          <Form.Item label={t('ad.field.periods')} extra={t('edit.periodsHint')}>
            <div id={PERIODS_ID} />
            <Form.List name="periods">
              {(fields, { add, remove }) => (
                <>
                  {fields.map((field, index) => (
                    <Space key={field.key} align="baseline" style={{ display: 'flex' }}>
                      <Form.Item
                        name={[field.name, 'range']}
                        rules={[{ required: true, message: t('required', { ns: 'validation' }) }]}
                      >
                        <TimePicker.RangePicker
                          format="HH:mm"
                          order={false}
                          aria-label={t('edit.periodN', { n: index + 1 })}
                          data-testid={`ad-edit-period-${index}`}
                        />
                      </Form.Item>
                      <MinusCircleOutlined
                        aria-label={t('edit.removePeriod')}
                        onClick={() => remove(field.name)}
                        data-testid={`ad-edit-period-remove-${index}`}
                      />
                    </Space>
                  ))}
                  <Button
                    type="dashed"
                    icon={<PlusOutlined />}
                    disabled={fields.length >= AD_MAX_PERIODS}
                    onClick={() => add({})}
                    data-testid="ad-edit-period-add"
                  >
                    {t('edit.addPeriod')}
                  </Button>
                </>
              )}
            </Form.List>
            {periodIssues.map((text) => (
              <div key={text} className="ant-form-item-explain-error" data-testid="ad-edit-period-issue">
                {text}
              </div>
            ))}
          </Form.Item>
          <Form.Item name="strategy" label={t('ad.field.strategy')}>
            <Radio.Group
              options={[
                { value: 'perDay', label: t('strategy.perDay') },
                { value: 'perLoop', label: t('strategy.perLoop') },
              ]}
            />
          </Form.Item>
          <Space>
            <Form.Item
              name="playsMin"
              label={t('edit.playsMin')}
              rules={[{ required: true, message: t('playCount', { ns: 'validation' }) }]}
            >
              <InputNumber min={AD_PLAY_COUNT_MIN} max={AD_PLAY_COUNT_MAX} precision={0} data-testid="ad-edit-min" />
            </Form.Item>
            <Form.Item
              name="playsMax"
              label={t('edit.playsMax')}
              rules={[{ required: true, message: t('playCount', { ns: 'validation' }) }]}
            >
              <InputNumber min={AD_PLAY_COUNT_MIN} max={AD_PLAY_COUNT_MAX} precision={0} data-testid="ad-edit-max" />
            </Form.Item>
          </Space>
          <Form.Item name="link" label={t('ad.field.link')}>
            <Input maxLength={500} data-testid="ad-edit-link" />
          </Form.Item>
          <Form.Item
            name="monitorUrl"
            label={t('ad.field.monitorUrl')}
            rules={[
              {
                validator: async (_r, value: string | undefined) => {
                  if (value?.trim() && !monitorUrlValid(value.trim())) throw new Error(t('edit.monitorUrlInvalid'));
                },
              },
            ]}
          >
            <Input placeholder="https://" data-testid="ad-edit-monitor" />
          </Form.Item>
          <Form.Item name="content" label={t('ad.field.content')}>
            <Radio.Group
              options={[
                { value: 'materials', label: t('edit.contentMaterials') },
                { value: 'layout', label: t('edit.contentLayout') },
              ]}
            />
          </Form.Item>
          {content === 'materials' ? (
            <Form.Item name="materials" label={t('edit.materials')}>
              <AdMaterialsField />
            </Form.Item>
          ) : (
            <Form.Item name="layoutId" label={t('edit.layout')}>
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                loading={layouts.isFetching}
                options={(layouts.data?.data ?? []).map((l) => ({ value: l.id, label: l.name }))}
                data-testid="ad-edit-layout"
              />
            </Form.Item>
          )}
          <AdTargetsFields known={existing.data?.targetNames} />
          <Space>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="ad-edit-submit">
              {t('save')}
            </Button>
            <Button onClick={() => navigate('/advert')} disabled={saving}>
              {t('cancel')}
            </Button>
          </Space>
        </Form>
      </Card>
    </div>
  );
}
