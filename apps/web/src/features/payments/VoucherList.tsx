import { FilePdfOutlined } from '@ant-design/icons';
import type { OfflinePayment } from '@marquee/protocol';
import { Image, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** A transfer's vouchers: images as thumbnails that open a preview, PDFs as links (a new tab). */
export function VoucherList({ vouchers, testId }: { vouchers: OfflinePayment['vouchers']; testId?: string }) {
  const { t } = useTranslation('payments');
  if (vouchers.length === 0) return <Typography.Text type="secondary">-</Typography.Text>;
  const images = vouchers.filter((v) => v.contentType.startsWith('image/'));
  const others = vouchers.filter((v) => !v.contentType.startsWith('image/'));
  return (
    <Space size={6} wrap data-testid={testId}>
      {images.length > 0 ? (
        <Image.PreviewGroup>
          {images.map((v, i) => (
            <Image
              key={v.url}
              src={v.url}
              width={44}
              height={44}
              style={{ objectFit: 'cover' }}
              alt={v.name || t('voucher.image', { n: i + 1 })}
            />
          ))}
        </Image.PreviewGroup>
      ) : null}
      {others.map((v) => (
        <Typography.Link key={v.url} href={v.url} target="_blank" rel="noopener noreferrer">
          <FilePdfOutlined /> {v.name || t('voucher.pdf')}
        </Typography.Link>
      ))}
    </Space>
  );
}
