import { isWeakPassword, strongPasswordSchema } from '@marquee/protocol';
import { Alert, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../components/zodRule';

/**
 * A new password and its confirmation, validated with the server's strength rule, with the
 * weak-password warning while the typed password does not meet it.
 */
export function PasswordFields({ testIdPrefix, disabled }: { testIdPrefix: string; disabled?: boolean }) {
  const { t } = useTranslation(['company', 'validation']);
  const form = Form.useFormInstance();
  const password: string | undefined = Form.useWatch('password', form);
  const required = { required: true, message: t('required', { ns: 'validation' }) };
  return (
    <>
      <Form.Item
        name="password"
        label={t('field.password')}
        rules={[required, zodRule(strongPasswordSchema, t)]}
        extra={t('field.passwordHint')}
      >
        <Input.Password autoComplete="new-password" disabled={disabled} data-testid={`${testIdPrefix}-password`} />
      </Form.Item>
      {password && isWeakPassword(password) ? (
        <Alert
          type="warning"
          showIcon
          className="mq-weak-password mq-span"
          title={t('weakPassword')}
          style={{ marginBottom: 16 }}
          data-testid={`${testIdPrefix}-weak`}
        />
      ) : null}
      <Form.Item
        name="confirmPassword"
        label={t('field.confirmPassword')}
        dependencies={['password']}
        rules={[
          required,
          ({ getFieldValue }) => ({
            validator: async (_r, value) => {
              if (value && value !== getFieldValue('password'))
                throw new Error(t('passwordConfirm', { ns: 'validation' }));
            },
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" disabled={disabled} data-testid={`${testIdPrefix}-confirm`} />
      </Form.Item>
    </>
  );
}
