/** The shell knowledge notes and playbooks share: a Markdown document's page, its form and its body field. */
export { AccessBadge, AccessTypeFilter, type DocumentAccessType } from './access';
export { MarkdownBodyField } from './body-field';
export { MarkdownDocumentForm, type MarkdownDocumentFormProps } from './document-form';
export { DocumentDetail, DocumentDetails, MarkdownDocumentView, type MarkdownDocumentViewProps } from './document-view';
