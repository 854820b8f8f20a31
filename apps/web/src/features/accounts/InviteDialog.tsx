import { CopyOutlined } from '@ant-design/icons';
import { formatTime, INVITATION_DEFAULT_DAYS, INVITATION_MAX_DAYS } from '@marquee/protocol';
import { App, Button, Form, InputNumber, Modal, Result, Space, Typography } from 'antd';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import { DeptPicker } from '../../components/pickers/DeptPicker';
import { RolePicker } from '../../components/pickers/RolePicker';

interface Values {
  deptId?: string;
  roleId?: string;
  days: number;
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Without the clipboard API (plain http), select a temporary field and copy it.
    const area = document.createElement('textarea');
    area.value = text;
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

/**
 * Add by QR: makes a signed invitation that expires (7 days by default) with an optional
 * preset department and role, and shows it as a QR code of the registration link plus the
 * link itself with a copy button.
 */
export function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(['accounts', 'validation']);
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [invite, setInvite] = useState<{ url: string; qr: string; expiresAt: string } | null>(null);

  useEffect(() => {
    if (open) {
      form.resetFields();
      setInvite(null);
    }
  }, [open, form]);

  const create = useCallMutation('invitationCreate', {
    onSuccess: async (res) => {
      const url = `${window.location.origin}${res.path}`;
      try {
        const qr = await QRCode.toDataURL(url, { width: 240, margin: 1, errorCorrectionLevel: 'M' });
        setInvite({ url, qr, expiresAt: res.expiresAt });
      } catch {
        void message.error(t('invite.qrFailed'));
      }
    },
  });

  const copy = async () => {
    if (!invite) return;
    if (await copyText(invite.url)) void message.success(t('invite.copied'));
    else void message.error(t('invite.copyFailed'));
  };

  return (
    <Modal
      open={open}
      title={t('invite.title')}
      onCancel={onClose}
      footer={
        invite ? (
          <Space>
            <Button onClick={() => setInvite(null)} data-testid="invite-again">
              {t('invite.again')}
            </Button>
            <Button type="primary" onClick={onClose} data-testid="invite-close">
              {t('action.close')}
            </Button>
          </Space>
        ) : (
          <Space>
            <Button onClick={onClose} disabled={create.isPending}>
              {t('action.cancel')}
            </Button>
            <Button
              type="primary"
              loading={create.isPending}
              onClick={() => form.submit()}
              data-testid="invite-generate"
            >
              {t('invite.generate')}
            </Button>
          </Space>
        )
      }
      maskClosable={false}
      destroyOnHidden
      width={520}
    >
      {invite ? (
        <Result
          className="mq-invite-result"
          icon={<img src={invite.qr} width={240} height={240} alt={t('invite.qrAlt')} data-testid="invite-qr" />}
          title={t('invite.scan')}
          subTitle={t('invite.expires', { time: formatTime(invite.expiresAt) })}
          extra={
            <Space.Compact block>
              <Typography.Text className="mq-invite-link" ellipsis={{ tooltip: invite.url }} data-testid="invite-link">
                {invite.url}
              </Typography.Text>
              <Button icon={<CopyOutlined />} onClick={copy} data-testid="invite-copy">
                {t('invite.copy')}
              </Button>
            </Space.Compact>
          }
        />
      ) : (
        <Form
          form={form}
          layout="vertical"
          onFinish={(v) => create.mutate({ deptId: v.deptId ?? null, roleId: v.roleId ?? null, days: v.days })}
          disabled={create.isPending}
          initialValues={{ days: INVITATION_DEFAULT_DAYS }}
        >
          <p className="mq-org-hint">{t('invite.hint')}</p>
          <Form.Item name="deptId" label={t('invite.dept')}>
            <DeptPicker allowClear enabled={open} placeholder={t('invite.deptDefault')} testId="invite-dept" />
          </Form.Item>
          <Form.Item name="roleId" label={t('invite.role')}>
            <RolePicker allowClear enabled={open} placeholder={t('invite.roleNone')} testId="invite-role" />
          </Form.Item>
          <Form.Item
            name="days"
            label={t('invite.days')}
            rules={[{ required: true, message: t('required', { ns: 'validation' }) }]}
          >
            <InputNumber min={1} max={INVITATION_MAX_DAYS} precision={0} data-testid="invite-days" />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
