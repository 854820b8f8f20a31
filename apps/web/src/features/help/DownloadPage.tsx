import { CopyOutlined, DownloadOutlined, FileExcelOutlined } from '@ant-design/icons';
import { type EndpointName, endpoints, Perm } from '@marquee/protocol';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Empty, Row, Skeleton, Space, Typography } from 'antd';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { download } from '../../api/client';
import { useCan } from '../../session/useCan';
import './help.css';

/**
 * Downloads (/help/download; issue 31): what a user takes from the platform to put it to work.
 * The browser player's address with its QR code (a screen with a browser opens it and pairs);
 * how to run the headless player (it runs from the source: the build makes no binary of it);
 * and the Excel template of every import the reader may use, downloaded through the template
 * endpoint the import dialog itself uses (not a copy), each with the page where it is imported.
 */

/** The import templates: the endpoint that answers the file and the page where the sheet is imported. */
export const IMPORT_TEMPLATES: readonly {
  name: string;
  endpoint: EndpointName;
  page: string;
  pagePermission: string;
}[] = [
  { name: 'devices', endpoint: 'deviceImportTemplate', page: '/device', pagePermission: Perm.device },
  { name: 'deviceShares', endpoint: 'deviceShareTemplate', page: '/device/group', pagePermission: Perm.deviceGroup },
  { name: 'flowCards', endpoint: 'flowCardImportTemplate', page: '/operate/flow', pagePermission: Perm.operateFlow },
];

/** The browser player's address on this server (the console and the player share the origin). */
export function playerAddress(origin: string): string {
  return `${origin.replace(/\/+$/, '')}/player/`;
}

export default function DownloadPage() {
  const { t } = useTranslation('help');
  const can = useCan();
  const templates = IMPORT_TEMPLATES.filter((tpl) => can(endpoints[tpl.endpoint].permission));
  return (
    <div className="mq-view mq-help" data-testid="help-download-page">
      <Typography.Title level={4}>{t('download.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('download.intro')}</Typography.Paragraph>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <BrowserPlayer />
        </Col>
        <Col xs={24} lg={12}>
          <HeadlessPlayer />
        </Col>
        <Col xs={24}>
          <Card title={t('download.templates.title')} size="small" data-testid="help-download-templates">
            {templates.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('download.templates.none')} />
            ) : (
              <Row gutter={[16, 16]}>
                {templates.map((tpl) => (
                  <Col key={tpl.name} xs={24} md={12} xl={8}>
                    <TemplateCard {...tpl} openable={can(tpl.pagePermission)} />
                  </Col>
                ))}
              </Row>
            )}
          </Card>
        </Col>
      </Row>
    </div>
  );
}

function BrowserPlayer() {
  const { t } = useTranslation('help');
  const address = playerAddress(window.location.origin);
  const [qr, setQr] = useState<string | null | undefined>();
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(address, { width: 200, margin: 1, errorCorrectionLevel: 'M' })
      .then((url) => live && setQr(url))
      .catch(() => live && setQr(null));
    return () => {
      live = false;
    };
  }, [address]);
  return (
    <Card
      title={t('download.browser.title')}
      size="small"
      className="mq-help-download"
      data-testid="help-download-browser"
    >
      <Typography.Paragraph>{t('download.browser.what')}</Typography.Paragraph>
      <div className="mq-help-player">
        {qr === undefined ? (
          <Skeleton.Image active style={{ width: 200, height: 200 }} />
        ) : qr ? (
          <img
            src={qr}
            alt={t('download.browser.qrAlt')}
            width={200}
            height={200}
            data-testid="help-download-player-qr"
          />
        ) : (
          <Alert type="warning" showIcon title={t('download.browser.qrFailed')} />
        )}
        <div>
          <Typography.Text type="secondary">{t('download.browser.address')}</Typography.Text>
          <Typography.Paragraph copyable={{ text: address }} data-testid="help-download-player-address">
            <a href={address} target="_blank" rel="noreferrer">
              {address}
            </a>
          </Typography.Paragraph>
          <ol className="mq-help-steps">
            <li>{t('download.browser.step1')}</li>
            <li>{t('download.browser.step2')}</li>
            <li>{t('download.browser.step3')}</li>
          </ol>
        </div>
      </div>
    </Card>
  );
}

function HeadlessPlayer() {
  const { t } = useTranslation('help');
  const command = `npm run player -- --server ${window.location.origin}`;
  return (
    <Card
      title={t('download.headless.title')}
      size="small"
      className="mq-help-download"
      data-testid="help-download-headless"
    >
      <Typography.Paragraph>{t('download.headless.what')}</Typography.Paragraph>
      <ol className="mq-help-steps">
        <li>{t('download.headless.step1')}</li>
        <li>
          {t('download.headless.step2')}
          <Typography.Paragraph
            code
            copyable={{ text: command, icon: <CopyOutlined /> }}
            className="mq-help-command"
            data-testid="help-download-headless-command"
          >
            {command}
          </Typography.Paragraph>
        </li>
        <li>{t('download.headless.step3')}</li>
      </ol>
      <Typography.Paragraph type="secondary">{t('download.headless.options')}</Typography.Paragraph>
      <Typography.Paragraph type="secondary">{t('download.headless.noBinary')}</Typography.Paragraph>
    </Card>
  );
}

function TemplateCard({
  name,
  endpoint,
  page,
  openable,
}: {
  name: string;
  endpoint: EndpointName;
  page: string;
  openable: boolean;
}) {
  const { t } = useTranslation('help');
  // The API client shows why a download failed (spec section 8).
  const file = useMutation({ mutationFn: () => download(endpoint, {} as never) });
  return (
    <Card size="small" type="inner" data-testid={`help-download-template-${name}`}>
      <Space align="start">
        <FileExcelOutlined style={{ fontSize: 28, color: '#1d6f42' }} />
        <div>
          <Typography.Text strong>{t(`download.templates.${name}.title`)}</Typography.Text>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
            {t(`download.templates.${name}.what`)}
          </Typography.Paragraph>
          <Space wrap>
            <Button
              icon={<DownloadOutlined />}
              loading={file.isPending}
              onClick={() => file.mutate()}
              data-testid={`help-download-template-${name}-file`}
            >
              {t('download.templates.download')}
            </Button>
            {openable ? <Link to={page}>{t('download.templates.open')}</Link> : null}
          </Space>
        </div>
      </Space>
    </Card>
  );
}
