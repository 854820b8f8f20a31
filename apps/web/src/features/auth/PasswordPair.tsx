import { Button, Form, type FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { requiredRule, zodRule } from '../../components/zodRule';

/** The required rule and a protocol rule (the same zod schema the server applies). */
export function useRules() {
  const { t } = useTranslation(['auth', 'validation']);
  const required: Rule = requiredRule(t);
  return { t, required, rule: (schema: Parameters<typeof zodRule>[0]) => zodRule(schema, t) };
}

/** New password (strength rule, validated while typing) and its confirmation, with the sign-up texts. */
export function PasswordPair({ prefix, label }: { prefix: string; label?: string }) {
  const { t } = useTranslation('auth');
  return (
    <NewPasswordFields
      testIdPrefix={prefix}
      labels={{ password: label ?? t('register.password'), confirm: t('register.confirm') }}
    />
  );
}

/** A sign-up form: vertical, no required marks, its fields then the block submit button, all disabled while `pending`. */
export function AuthForm<V>({
  form,
  pending,
  onFinish,
  submit,
  testId,
  children,
}: {
  form: FormInstance<V>;
  pending: boolean;
  onFinish: (values: V) => void;
  submit: { label: string; testId: string };
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Form<V>
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={onFinish}
      disabled={pending}
      data-testid={testId}
    >
      {children}
      <Button type="primary" htmlType="submit" block loading={pending} data-testid={submit.testId}>
        {submit.label}
      </Button>
    </Form>
  );
}
