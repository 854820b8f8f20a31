import {
  DOWNLOAD_CONCURRENCY,
  downloadRulesSchema,
  downloadWindowsSchema,
  levelPeriodsSchema,
  levelSchema,
  OPERATION_LIMITS,
  type OperationField,
  operationRulesSchema,
  STRATEGY_DEFAULTS,
  type StrategyRow,
  type StrategyType,
  sendingIntervalSchema,
  strategyNameSchema,
  strategyRulesSchemaAt,
} from '@marquee/protocol';
import { Form, Input, InputNumber, Slider } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { FormDialog } from '../../components/FormDialog';
import { requiredRule, zodRule } from '../../components/zodRule';
import { LevelPeriodsEditor, PowerEditor, WindowsEditor } from './RulesEditors';
import { issuePaths } from './rulesForm';

interface Values {
  name: string;
  remark?: string;
  rules: Record<string, unknown>;
}

const OPERATION_UNITS: Record<OperationField, 'sec' | 'min' | 'day' | 'hour'> = {
  autoStartSec: 'sec',
  exitAutoStartSec: 'sec',
  reportCycleMin: 'min',
  playLogDays: 'day',
  expiredMaterialDays: 'day',
  offlineImpressionDays: 'day',
  pauseRotationSec: 'sec',
  offlineNotifyHours: 'hour',
};

/**
 * Adds a strategy of one type or edits one: name, remark and the type's rules, validated live
 * with the protocol's rules (the same the server applies: time conflicts, overlapping periods,
 * the ranges of spec section 5).
 */
export function StrategyDialog({
  open,
  type,
  editing,
  onClose,
}: {
  open: boolean;
  type: StrategyType;
  editing: StrategyRow | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['strategies', 'validation']);
  const [form] = Form.useForm<Values>();
  const rules = Form.useWatch('rules', form) as Record<string, unknown> | undefined;
  const powerSchema = useMemo(() => strategyRulesSchemaAt('power', () => Date.now()), []);
  const issues = useMemo(() => {
    if (!rules) return new Map<string, string>();
    if (type === 'power') return issuePaths(powerSchema, rules);
    if (type === 'download') return issuePaths(downloadWindowsSchema, rules.windows ?? []);
    if (type === 'volume' || type === 'brightness') return issuePaths(levelPeriodsSchema, rules.periods ?? []);
    return new Map<string, string>();
  }, [rules, type, powerSchema]);

  const submit = async (v: Values) => {
    const body = { name: v.name.trim(), remark: v.remark?.trim() ?? '', type, rules: v.rules } as never;
    if (editing) await call('strategyUpdate', { id: editing.id, ...(body as object) } as never);
    else await call('strategyAdd', body);
  };

  const required = requiredRule(t);
  // A number field: requiredRule's whitespace check is for text.
  const requiredNumber = { required: true, message: t('required', { ns: 'validation' }) };
  const typeName = t(`type.${type}`);
  return (
    <FormDialog<Values>
      open={open}
      form={form}
      title={editing ? t('dialog.editTitle', { name: editing.name }) : t('dialog.addTitle', { type: typeName })}
      onClose={onClose}
      submit={submit}
      success={t(editing ? 'dialog.updated' : 'dialog.added')}
      invalidates={['strategies']}
      initialValues={{ rules: structuredClone(STRATEGY_DEFAULTS[type]) as unknown as Record<string, unknown> }}
      values={editing ? { name: editing.name, remark: editing.remark, rules: editing.rules } : undefined}
      okText={t('dialog.save')}
      cancelText={t('dialog.cancel')}
      submitTestId="strategy-dialog-submit"
      testId="strategy-dialog"
      width={880}
    >
      <Form.Item name="name" label={t('field.name')} rules={[required, zodRule(strategyNameSchema, t)]}>
        <Input maxLength={30} showCount data-testid="strategy-dialog-name" />
      </Form.Item>
      <Form.Item name="remark" label={t('field.remark')}>
        <Input.TextArea maxLength={200} autoSize={{ minRows: 1, maxRows: 3 }} data-testid="strategy-dialog-remark" />
      </Form.Item>
      {type === 'power' ? (
        <Form.Item
          name="rules"
          label={t('power.label')}
          rules={[zodRule(powerSchema, t)]}
          data-testid="strategy-rules-item"
        >
          <PowerEditor issues={issues} />
        </Form.Item>
      ) : null}
      {type === 'volume' || type === 'brightness' ? (
        <>
          <Form.Item
            name={['rules', 'defaultLevel']}
            label={t('level.default')}
            rules={[requiredNumber, zodRule(levelSchema, t)]}
          >
            <Slider min={0} max={100} marks={{ 0: '0', 50: '50', 100: '100' }} aria-label={t('level.default')} />
          </Form.Item>
          <Form.Item
            name={['rules', 'periods']}
            label={t('level.periods')}
            rules={[zodRule(levelPeriodsSchema, t)]}
            data-testid="strategy-rules-item"
          >
            <LevelPeriodsEditor issues={issues} testId={`strategy-${type}`} />
          </Form.Item>
        </>
      ) : null}
      {type === 'operation' ? (
        <div className="mq-strategy-grid">
          {(Object.keys(OPERATION_LIMITS) as OperationField[]).map((field) => (
            <Form.Item
              key={field}
              name={['rules', field]}
              label={t(`op.${field}`)}
              extra={t('op.range', { ...OPERATION_LIMITS[field], unit: t(`unit.${OPERATION_UNITS[field]}`) })}
              rules={[requiredNumber, zodRule(operationRulesSchema.shape[field], t)]}
            >
              <InputNumber
                style={{ width: '100%' }}
                precision={0}
                suffix={t(`unit.${OPERATION_UNITS[field]}`)}
                data-testid={`strategy-op-${field}`}
              />
            </Form.Item>
          ))}
        </div>
      ) : null}
      {type === 'download' ? (
        <>
          <Form.Item
            name={['rules', 'windows']}
            label={t('download.windows')}
            rules={[zodRule(downloadWindowsSchema, t)]}
            data-testid="strategy-rules-item"
          >
            <WindowsEditor issues={issues} />
          </Form.Item>
          <div className="mq-strategy-grid">
            <Form.Item
              name={['rules', 'concurrency']}
              label={t('download.concurrency')}
              extra={t('op.range', { ...DOWNLOAD_CONCURRENCY, unit: '' })}
              rules={[requiredNumber, zodRule(downloadRulesSchema.shape.concurrency, t)]}
            >
              <InputNumber
                min={DOWNLOAD_CONCURRENCY.min}
                max={DOWNLOAD_CONCURRENCY.max}
                precision={0}
                style={{ width: '100%' }}
              />
            </Form.Item>
            <Form.Item
              name={['rules', 'intervalMin']}
              label={t('download.intervalMin')}
              extra={t('download.intervalHint')}
              rules={[requiredNumber, zodRule(sendingIntervalSchema, t)]}
            >
              <InputNumber
                precision={0}
                suffix={t('unit.min')}
                style={{ width: '100%' }}
                data-testid="strategy-interval"
              />
            </Form.Item>
          </div>
        </>
      ) : null}
    </FormDialog>
  );
}
