import { issueMessage, PLAN_BUDGET_MAX, PLAN_NAME_MAX, type PromotionPlan, planBodySchema } from '@marquee/protocol';
import { DatePicker, Form, Input, InputNumber } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import { type EditDialogProps, FormDialog } from '../../components/FormDialog';
import { maxLengthRule, requiredRule, validationMessage } from '../../components/zodRule';

interface Values {
  name: string;
  budget?: number | null;
  range?: [Dayjs | null, Dayjs | null] | null;
}

const day = (d: Dayjs | null | undefined) => (d ? d.format('YYYY-MM-DD') : null);

/** The fields a plan is saved with, from the dialog's values. */
export function planFields(v: Values) {
  return {
    name: v.name.trim(),
    budget: v.budget ?? null,
    startDate: day(v.range?.[0]),
    endDate: day(v.range?.[1]),
  };
}

/**
 * Adds a promotion plan or edits one: name, budget (yuan, 2 decimals, optional) and dates
 * (optional). Validated with the server's plan rules; the default plan never comes here.
 */
export function PlanDialog({ open, editing, onClose }: EditDialogProps<PromotionPlan>) {
  const { t } = useTranslation(['ads', 'validation']);
  const isEdit = editing !== null;
  const create = useCallMutation('planSave');
  const update = useCallMutation('planUpdate');

  const submit = (v: Values) => {
    const fields = planFields(v);
    return editing ? update.mutateAsync({ id: editing.id, ...fields }) : create.mutateAsync(fields);
  };

  return (
    <FormDialog<Values>
      open={open}
      title={t(isEdit ? 'plan.editTitle' : 'plan.addTitle')}
      onClose={onClose}
      submit={submit}
      success={t(isEdit ? 'plan.updated' : 'plan.added')}
      values={
        editing
          ? {
              name: editing.name,
              budget: editing.budget,
              range:
                editing.startDate || editing.endDate
                  ? [
                      editing.startDate ? dayjs(editing.startDate) : null,
                      editing.endDate ? dayjs(editing.endDate) : null,
                    ]
                  : null,
            }
          : undefined
      }
      okText={t('save')}
      cancelText={t('cancel')}
      submitTestId="plan-dialog-submit"
      testId="plan-dialog"
    >
      <Form.Item name="name" label={t('plan.field.name')} rules={[requiredRule(t), maxLengthRule(t, PLAN_NAME_MAX)]}>
        <Input maxLength={PLAN_NAME_MAX} data-testid="plan-dialog-name" />
      </Form.Item>
      <Form.Item
        name="budget"
        label={t('plan.field.budget')}
        extra={t('plan.budgetHint')}
        rules={[
          {
            validator: async (_r, value: number | null | undefined) => {
              if (value === null || value === undefined) return;
              const r = planBodySchema.safeParse({ name: 'x', budget: value });
              if (!r.success) throw new Error(validationMessage(t, issueMessage(r.error.issues[0])));
            },
          },
        ]}
      >
        <InputNumber min={0} max={PLAN_BUDGET_MAX} style={{ width: '100%' }} data-testid="plan-dialog-budget" />
      </Form.Item>
      <Form.Item name="range" label={t('plan.field.dates')}>
        <DatePicker.RangePicker allowEmpty={[true, true]} style={{ width: '100%' }} data-testid="plan-dialog-dates" />
      </Form.Item>
    </FormDialog>
  );
}
