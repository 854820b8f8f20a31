import { DownloadOutlined } from '@ant-design/icons';
import { type DeviceRow, formatSize, formatTime } from '@marquee/protocol';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Modal, Result, Spin, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';

/**
 * A screen's offline package (issue 31; docs/device-protocol.md 2.11): opening the dialog asks
 * the server for it (it checks every file of the screen's content is stored), then offers the
 * archive's signed link (an hour) with what it holds and how the player loads it.
 */
export function OfflinePackageDialog({ device, onClose }: { device: DeviceRow | null; onClose: () => void }) {
  const { t } = useTranslation('player');
  const made = useMutation({
    mutationFn: (id: string) => call('deviceOfflinePackage', { id }, { silent: true }),
  });
  const { mutate, reset } = made;
  // One request per opening (StrictMode runs effects twice in development).
  const askedFor = useRef<string | null>(null);
  useEffect(() => {
    if (device && askedFor.current !== device.id) {
      askedFor.current = device.id;
      mutate(device.id);
    } else if (!device) {
      askedFor.current = null;
      reset();
    }
  }, [device, mutate, reset]);
  const answer = made.data;
  return (
    <Modal
      open={device !== null}
      title={t('offline.title', { name: device?.name ?? '' })}
      onCancel={onClose}
      width={640}
      destroyOnHidden
      footer={
        <Button onClick={onClose} data-testid="device-offline-close">
          {t('offline.close')}
        </Button>
      }
    >
      <div data-testid="device-offline-dialog">
        {made.isPending && (
          <div style={{ textAlign: 'center', padding: 24 }}>
            <Spin />
            <div className="mq-muted" style={{ marginTop: 8 }}>
              {t('offline.preparing')}
            </div>
          </div>
        )}
        {made.isError && (
          <Result
            status="warning"
            title={t('offline.failed')}
            subTitle={made.error.message}
            extra={
              <Button onClick={() => device && mutate(device.id)} data-testid="device-offline-retry">
                {t('offline.retry')}
              </Button>
            }
          />
        )}
        {answer && (
          <>
            {answer.items === 0 && (
              <Alert type="warning" showIcon style={{ marginBottom: 12 }} message={t('offline.nothing')} />
            )}
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label={t('offline.file')}>{answer.fileName}</Descriptions.Item>
              <Descriptions.Item label={t('offline.size')}>
                <span data-testid="device-offline-size">{formatSize(answer.size)}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('offline.contents')}>
                <span data-testid="device-offline-contents">
                  {t('offline.counts', { items: answer.items, files: answer.files })}
                </span>
              </Descriptions.Item>
              <Descriptions.Item label={t('offline.expires')}>{formatTime(answer.expiresAt)}</Descriptions.Item>
            </Descriptions>
            <div style={{ margin: '16px 0' }}>
              <Button
                type="primary"
                icon={<DownloadOutlined />}
                href={answer.url}
                download={answer.fileName}
                data-testid="device-offline-download"
              >
                {t('offline.download')}
              </Button>
            </div>
            <Typography.Paragraph className="mq-muted">{t('offline.howTo')}</Typography.Paragraph>
            <Typography.Paragraph>
              <Typography.Text code copyable>
                {`npm run player -- --state player.json --offline-package ${answer.fileName}`}
              </Typography.Text>
            </Typography.Paragraph>
          </>
        )}
      </div>
    </Modal>
  );
}
