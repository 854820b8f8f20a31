import { strongPasswordSchema } from '@marquee/protocol';
import { Form, Input } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../components/zodRule';

/** The required rule and a protocol rule (the same zod schema the server applies). */
export function useRules() {
  const { t } = useTranslation(['auth', 'validation']);
  const required: Rule = { required: true, whitespace: true, message: t('required', { ns: 'validation' }) };
  const confirm: Rule = ({ getFieldValue }) => ({
    validator: async (_r, value) => {
      if (value && value !== getFieldValue('password')) throw new Error(t('passwordConfirm', { ns: 'validation' }));
    },
  });
  return { t, required, confirm, rule: (schema: Parameters<typeof zodRule>[0]) => zodRule(schema, t) };
}

/** New password (strength rule, validated while typing) and its confirmation. */
export function PasswordPair({ prefix, label }: { prefix: string; label?: string }) {
  const { t, required, confirm, rule } = useRules();
  const password: string | undefined = Form.useWatch('password');
  return (
    <>
      <Form.Item
        name="password"
        label={label ?? t('register.password')}
        rules={[required, rule(strongPasswordSchema)]}
        // The rule as help while empty; once typed, the rule's own message says what is missing.
        extra={password ? undefined : t('register.passwordRule')}
      >
        <Input.Password autoComplete="new-password" data-testid={`${prefix}-password`} />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label={t('register.confirm')}
        dependencies={['password']}
        rules={[required, confirm]}
      >
        <Input.Password autoComplete="new-password" data-testid={`${prefix}-confirm`} />
      </Form.Item>
    </>
  );
}
