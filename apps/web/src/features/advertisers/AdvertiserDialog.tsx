import {
  type Advertiser,
  advertiserEmailSchema,
  advertiserNameSchema,
  advertiserPhoneSchema,
  loginAccountSchema,
  strongPasswordSchema,
} from '@marquee/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { zodRule } from '../../components/zodRule';

interface Values {
  loginName: string;
  realName: string;
  phone?: string;
  email?: string;
  password: string;
  confirmPassword: string;
}

/**
 * Adds an advertiser (login account, strong password with confirmation) or edits one (name,
 * phone, email). Validated with the server's zod rules; disabled while submitting.
 */
export function AdvertiserDialog({
  open,
  editing,
  onClose,
}: {
  open: boolean;
  /** The advertiser to edit; null adds a new one. */
  editing: Advertiser | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['advertisers', 'validation']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const isEdit = editing !== null;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (editing)
      form.setFieldsValue({ realName: editing.realName, phone: editing.phone ?? '', email: editing.email ?? '' });
  }, [open, editing, form]);

  const save = useMutation({
    mutationFn: async (v: Values) => {
      const fields = { realName: v.realName.trim(), phone: v.phone?.trim() ?? '', email: v.email?.trim() ?? '' };
      if (editing) await call('advertiserUpdate', { id: editing.id, ...fields });
      else await call('advertiserAdd', { ...fields, loginName: v.loginName.trim(), password: v.password });
    },
    onSuccess: () => {
      void message.success(t(isEdit ? 'dialog.updated' : 'dialog.added'));
      void queryClient.invalidateQueries({ queryKey: ['advertisers'] });
      onClose();
    },
  });

  const required = { required: true, message: t('required', { ns: 'validation' }) };
  return (
    <Modal
      open={open}
      title={t(isEdit ? 'dialog.editTitle' : 'dialog.addTitle')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('dialog.save')}
      cancelText={t('dialog.cancel')}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'adv-dialog-submit' } as Record<string, string>}
      maskClosable={false}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={(v) => save.mutate(v)}
        disabled={save.isPending}
        data-testid="adv-dialog"
      >
        {!isEdit ? (
          <Form.Item
            name="loginName"
            label={t('field.loginName')}
            rules={[required, zodRule(loginAccountSchema, t)]}
            extra={t('field.loginNameHint')}
          >
            <Input autoComplete="off" data-testid="adv-dialog-login" />
          </Form.Item>
        ) : null}
        <Form.Item name="realName" label={t('field.realName')} rules={[required, zodRule(advertiserNameSchema, t)]}>
          <Input data-testid="adv-dialog-name" />
        </Form.Item>
        <Form.Item name="phone" label={t('field.phone')} rules={[zodRule(advertiserPhoneSchema, t)]}>
          <Input data-testid="adv-dialog-phone" />
        </Form.Item>
        <Form.Item name="email" label={t('field.email')} rules={[zodRule(advertiserEmailSchema, t)]}>
          <Input data-testid="adv-dialog-email" />
        </Form.Item>
        {!isEdit ? (
          <>
            <Form.Item
              name="password"
              label={t('field.password')}
              rules={[required, zodRule(strongPasswordSchema, t)]}
              tooltip={t('field.passwordHint')}
            >
              <Input.Password autoComplete="new-password" data-testid="adv-dialog-password" />
            </Form.Item>
            <Form.Item
              name="confirmPassword"
              label={t('field.confirmPassword')}
              dependencies={['password']}
              rules={[
                required,
                ({ getFieldValue }) => ({
                  validator: async (_r, value) => {
                    if (value && value !== getFieldValue('password')) {
                      throw new Error(t('passwordConfirm', { ns: 'validation' }));
                    }
                  },
                }),
              ]}
            >
              <Input.Password autoComplete="new-password" data-testid="adv-dialog-confirm" />
            </Form.Item>
          </>
        ) : null}
      </Form>
    </Modal>
  );
}
