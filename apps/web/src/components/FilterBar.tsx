import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Form, Space } from 'antd';
import { type CSSProperties, type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormName } from './formName';

export interface FilterBarProps<V extends object> {
  /**
   * The filters of the URL as the fields hold them; the fields follow whenever it changes
   * (Back, a link, a reset), so keep it stable between renders (useUrlListState's `filters` is).
   */
  values: V;
  /** Search (the button or Enter) with the fields' values; useUrlListState's `applyFilters`. */
  onSearch: (values: V) => void;
  /** Reset, after the fields are cleared; useUrlListState's `clearFilters`. */
  onReset: () => void;
  testIds?: { search?: string; reset?: string };
  /** The reset button's icon (default: reload); `null` for none. */
  resetIcon?: ReactNode;
  className?: string;
  style?: CSSProperties;
  /** The filter fields: `Form.Item`s named after the keys of `values`. */
  children: ReactNode;
}

/**
 * The filter bar of a list page: an inline form of the page's fields followed by Search and
 * Reset, worded once for every list (common `filter.search` / `filter.reset`: 查询 / 重置). The form is the
 * bar's own; the page only maps its values to and from the URL. Its fields' ids are prefixed with the
 * form's own name (useFormName), so a dialog's form above it with the same field names never repeats an id.
 */
export function FilterBar<V extends object>({
  values,
  onSearch,
  onReset,
  testIds,
  resetIcon = <ReloadOutlined />,
  className,
  style,
  children,
}: FilterBarProps<V>) {
  const { t } = useTranslation('common');
  const [form] = Form.useForm<V>();
  const name = useFormName('filter');
  useEffect(() => form.setFieldsValue(values), [values, form]);
  return (
    <Form form={form} name={name} layout="inline" onFinish={onSearch} className={className} style={style}>
      {children}
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid={testIds?.search}>
            {t('filter.search')}
          </Button>
          <Button
            icon={resetIcon}
            onClick={() => {
              form.resetFields();
              onReset();
            }}
            data-testid={testIds?.reset}
          >
            {t('filter.reset')}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
