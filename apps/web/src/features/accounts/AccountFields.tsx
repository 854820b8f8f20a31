import { loginAccountSchema } from '@marquee/protocol';
import { Form, Input, Radio } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { requiredRule, zodRule } from '../../components/zodRule';

/**
 * Fields every account form shares (accounts, a company's administrator, advertisers): the
 * login account with its rule and hint and the account type (the department and role pickers
 * are components/pickers').
 */
export function LoginNameField({ name = 'loginName', testId }: { name?: string; testId: string }) {
  const { t } = useTranslation(['accounts', 'validation']);
  return (
    <Form.Item
      name={name}
      label={t('field.loginName')}
      rules={[requiredRule(t), zodRule(loginAccountSchema, t)]}
      extra={t('field.loginNameHint')}
    >
      <Input autoComplete="off" data-testid={testId} />
    </Form.Item>
  );
}

export function AccountTypeField() {
  const { t } = useTranslation('accounts');
  return (
    <Form.Item name="accountType" label={t('field.accountType')}>
      <Radio.Group
        options={[
          { value: 'enterprise', label: t('accountType.enterprise') },
          { value: 'individual', label: t('accountType.individual') },
        ]}
      />
    </Form.Item>
  );
}

/** A person's name, phone and email as a request takes them: trimmed, the optional ones '' when empty. */
export function personFields(v: { realName: string; phone?: string; email?: string }) {
  return { realName: v.realName.trim(), phone: v.phone?.trim() ?? '', email: v.email?.trim() ?? '' };
}

/**
 * A person's name (required), phone and email, each checked by the server's schema of the
 * form's kind (an account's, an advertiser's); labels from `t` (the form's namespace), test
 * ids `${testIdPrefix}-name`, `-phone` and `-email`.
 */
export function PersonFields({
  t,
  schemas,
  testIdPrefix,
}: {
  t: TFunction;
  schemas: { realName: z.ZodType; phone: z.ZodType; email: z.ZodType };
  testIdPrefix: string;
}) {
  return (
    <>
      <Form.Item name="realName" label={t('field.realName')} rules={[requiredRule(t), zodRule(schemas.realName, t)]}>
        <Input data-testid={`${testIdPrefix}-name`} />
      </Form.Item>
      <Form.Item name="phone" label={t('field.phone')} rules={[zodRule(schemas.phone, t)]}>
        <Input data-testid={`${testIdPrefix}-phone`} />
      </Form.Item>
      <Form.Item name="email" label={t('field.email')} rules={[zodRule(schemas.email, t)]}>
        <Input data-testid={`${testIdPrefix}-email`} />
      </Form.Item>
    </>
  );
}
