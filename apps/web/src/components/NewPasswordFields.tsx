import { isWeakPassword, strongPasswordSchema } from '@marquee/protocol';
import { Alert, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { requiredRule, zodRule } from './zodRule';

/**
 * A new password and its confirmation inside a form (fields `password` and `confirmPassword`),
 * validated with the server's strength rule. The page gives the labels; with `weakWarning`
 * a warning shows while the typed password is weak. Test ids: `<prefix>-password`,
 * `<prefix>-confirm` and `<prefix>-weak`.
 */
export function NewPasswordFields({
  testIdPrefix,
  labels,
  hintPlacement = 'extra',
  weakWarning,
}: {
  testIdPrefix: string;
  labels: { password: string; confirm: string; hint: string };
  /** The strength hint below the field (`extra`) or behind the label's question mark (`tooltip`). */
  hintPlacement?: 'extra' | 'tooltip';
  weakWarning?: string;
}) {
  const { t } = useTranslation('validation');
  const password: string | undefined = Form.useWatch('password', Form.useFormInstance());
  const required = requiredRule(t);
  return (
    <>
      <Form.Item
        name="password"
        label={labels.password}
        rules={[required, zodRule(strongPasswordSchema, t)]}
        extra={hintPlacement === 'extra' ? labels.hint : undefined}
        tooltip={hintPlacement === 'tooltip' ? labels.hint : undefined}
      >
        <Input.Password autoComplete="new-password" data-testid={`${testIdPrefix}-password`} />
      </Form.Item>
      {weakWarning && password && isWeakPassword(password) ? (
        <Alert
          type="warning"
          showIcon
          className="mq-weak-password mq-span"
          title={weakWarning}
          style={{ marginBottom: 16 }}
          data-testid={`${testIdPrefix}-weak`}
        />
      ) : null}
      <Form.Item
        name="confirmPassword"
        label={labels.confirm}
        dependencies={['password']}
        rules={[
          required,
          ({ getFieldValue }) => ({
            validator: async (_r, value) => {
              if (value && value !== getFieldValue('password')) throw new Error(t('passwordConfirm'));
            },
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" data-testid={`${testIdPrefix}-confirm`} />
      </Form.Item>
    </>
  );
}
