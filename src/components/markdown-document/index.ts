/**
 * The shell knowledge notes and playbooks share: a Markdown document's list filters, its page, its form and its
 * body field.
 */
export { AccessBadge, AccessTypeFilter, type DocumentAccessType } from './access';
export { accessColumn } from './access-column';
export { MarkdownBodyField } from './body-field';
export { DocumentFilters, documentListEmpty, type DocumentListFilters } from './document-filters';
export { MarkdownDocumentForm, type MarkdownDocumentFormProps } from './document-form';
export { DocumentDetail, DocumentDetails, MarkdownDocumentView, type MarkdownDocumentViewProps } from './document-view';
