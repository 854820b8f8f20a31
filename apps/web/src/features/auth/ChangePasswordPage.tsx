import { loginPasswordSchema } from '@marquee/protocol';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input } from 'antd';
import { useNavigate } from 'react-router';
import { call } from '../../api/client';
import { useSession } from '../../session/session';
import { AuthFrame } from './AuthFrame';
import { AuthForm, PasswordPair, useRules } from './PasswordPair';
import './auth.css';

interface Values {
  oldPassword: string;
  password: string;
  confirmPassword: string;
}

/**
 * /changePassword: the forced password change (session state updatePwd). The guard sends
 * an account that must change its password here and nowhere else, and the server refuses
 * its other calls (PASSWORD_CHANGE_REQUIRED) until it is done; logging out is the only other way.
 */
export default function ChangePasswordPage() {
  const { t, required, rule } = useRules();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const forced = useSession((s) => s.updatePwd);
  const userName = useSession((s) => s.userName || s.loginName);
  const [form] = Form.useForm<Values>();

  const change = useMutation({
    mutationFn: async (v: Values) => {
      await call('changePassword', v);
      return call('authInfo', {});
    },
    onSuccess: (info) => {
      useSession.getState().setUserInfo(info);
      void message.success(t('change.done'));
      navigate('/', { replace: true });
    },
  });

  return (
    <AuthFrame
      testId="change-password-page"
      cardClassName="mq-register-card"
      brand={t('change.title')}
      subtitle={userName}
      title={t('change.title')}
      footer={
        <Button type="link" onClick={() => void useSession.getState().logout()} data-testid="change-logout">
          {t('change.logout')}
        </Button>
      }
    >
      {forced ? (
        <Alert
          type="warning"
          showIcon
          title={t('change.forced')}
          className="mq-register-weak"
          data-testid="change-forced"
        />
      ) : null}
      <AuthForm<Values>
        form={form}
        pending={change.isPending}
        onFinish={(v) => change.mutate(v)}
        submit={{ label: t('change.submit'), testId: 'change-submit' }}
      >
        <Form.Item name="oldPassword" label={t('change.old')} rules={[required, rule(loginPasswordSchema)]}>
          <Input.Password autoFocus autoComplete="current-password" data-testid="change-old" />
        </Form.Item>
        <PasswordPair prefix="change" label={t('change.new')} />
      </AuthForm>
    </AuthFrame>
  );
}
