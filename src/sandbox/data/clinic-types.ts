// Records behind the smaller clinic endpoints: appointments, form templates, announcements, AI reports and sales.

export const APPOINTMENT_STATUSES = ['scheduled', 'completed', 'cancelled', 'no_show'] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

export interface AppointmentRecord {
  id: number;
  tenant_id: number;
  customer_id: number | null;
  user_id: number;
  title: string;
  status: AppointmentStatus;
  starts_at: string;
  ends_at: string;
  notes: string | null;
  created_at: string;
  updated_at: string;
}

export interface QuestionOption {
  id: number;
  label: string;
  order: number;
}

export interface VisibilityRule {
  id: number;
  depends_on_question_id: number;
  operator: 'equals' | 'not_equals' | 'contains';
  value: string;
  match_type: 'all' | 'any';
}

export interface Question {
  id: number;
  order: number;
  label: string;
  helper_text: string;
  question_type: 'text' | 'textarea' | 'yes_no' | 'single_choice' | 'multiple_choice' | 'date' | 'checkbox';
  required: boolean;
  options: QuestionOption[];
  visibility_rules: VisibilityRule[];
}

export interface FormTemplateRecord {
  id: number;
  tenant_id: number;
  name: string;
  system_name: string;
  description: string;
  is_active: boolean;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  questions: Question[];
}

export interface AnnouncementRecord {
  id: number;
  tenant_id: number;
  title: string;
  content: string;
  is_active: boolean;
  severity: 'info' | 'warning' | 'critical';
  start_date: string;
  end_date: string;
  created_at: string;
  updated_at: string;
}

export interface AiReportRecord {
  id: number;
  tenant_id: number;
  title: string;
  /** Only a ready report has a PDF; a generating one answers BAD_REQUEST. */
  status: 'ready' | 'generating';
  period_start: string;
  period_end: string;
  created_at: string;
}

export interface SaleItem {
  product_id: number;
  name: string;
  quantity: number;
  unit_price: number;
}

export interface SaleRecord {
  id: number;
  tenant_id: number;
  customer_id: number | null;
  total: number;
  currency: string;
  items: SaleItem[];
  stock_deducted: boolean;
  stock_deducted_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface TransactionType {
  slug: string;
  label: string;
}
