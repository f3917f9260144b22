/** What the sandbox's code scans find: finding templates with their snippets, by severity. */
import type { FindingSeverity } from '../../../api/operations/code-scans';

export interface SnippetTemplate {
  file: string;
  start: number;
  code: string;
  commentary: string;
}

export interface FindingTemplate {
  title: string;
  category: string;
  severities: readonly FindingSeverity[];
  description: string;
  recommendation: string;
  snippets: readonly SnippetTemplate[];
}

export const FINDING_TEMPLATES: readonly FindingTemplate[] = [
  {
    title: 'SQL injection in order search',
    category: 'injection',
    severities: ['critical', 'high'],
    description:
      'User input from the search query is concatenated into a SQL statement, so a crafted value can read or change any table.',
    recommendation: 'Use a parameterized query (placeholders) and validate the sort column against an allow-list.',
    snippets: [
      {
        file: 'src/orders/search.ts',
        start: 42,
        code: "const sql = `SELECT * FROM orders WHERE customer LIKE '%${req.query.q}%' ORDER BY ${req.query.sort}`;\nconst rows = await db.query(sql);",
        commentary: '`req.query.q` and `req.query.sort` reach the SQL text unescaped.',
      },
    ],
  },
  {
    title: 'Hard-coded cloud credential',
    category: 'secrets',
    severities: ['critical'],
    description:
      'An access key and its secret are committed to the repository and are valid for the production account.',
    recommendation:
      'Revoke the key, load credentials from the secret store at runtime, and add a pre-commit secret scan.',
    snippets: [
      {
        file: 'config/storage.py',
        start: 7,
        code: 'AWS_ACCESS_KEY_ID = "AKIAIOSFODNN7EXAMPLE"\nAWS_SECRET_ACCESS_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"',
        commentary: 'Both halves of the credential are in plain text.',
      },
    ],
  },
  {
    title: 'Stored cross-site scripting in comments',
    category: 'xss',
    severities: ['high', 'medium'],
    description:
      'Comment bodies are rendered as HTML without sanitizing, so a comment can run script in other users’ browsers.',
    recommendation: 'Render comments as text, or sanitize with an allow-list sanitizer before inserting HTML.',
    snippets: [
      {
        file: 'src/components/comment.tsx',
        start: 18,
        code: '<div className="comment" dangerouslySetInnerHTML={{ __html: comment.body }} />',
        commentary: '`comment.body` is user-controlled.',
      },
      {
        file: 'src/api/comments.ts',
        start: 61,
        code: 'await db.comments.insert({ body: req.body.body, author: user.id });',
        commentary: 'Stored as received: nothing is escaped on the way in either.',
      },
    ],
  },
  {
    title: 'Path traversal in file download',
    category: 'path_traversal',
    severities: ['high', 'medium'],
    description: 'The download handler joins a user-supplied name onto the uploads folder, so `../` reaches any file.',
    recommendation: 'Resolve the path and check it stays inside the uploads folder; better, look files up by id.',
    snippets: [
      {
        file: 'server/routes/files.js',
        start: 23,
        code: 'const file = path.join(UPLOADS, req.params.name);\nres.sendFile(file);',
        commentary: '`req.params.name` may contain `../`.',
      },
    ],
  },
  {
    title: 'Server-side request forgery in webhook preview',
    category: 'ssrf',
    severities: ['high'],
    description:
      'The preview fetches any URL a user enters, including internal addresses and the cloud metadata service.',
    recommendation:
      'Allow only https to public addresses; resolve the host and refuse private, loopback and link-local ranges.',
    snippets: [
      {
        file: 'app/services/webhook_preview.rb',
        start: 12,
        code: 'response = Net::HTTP.get_response(URI(params[:url]))',
        commentary: 'No check of the destination before the request.',
      },
    ],
  },
  {
    title: 'Weak password hashing (MD5)',
    category: 'cryptography',
    severities: ['medium', 'high'],
    description: 'Passwords are hashed with unsalted MD5, which is fast to brute-force.',
    recommendation: 'Hash with argon2id or bcrypt and re-hash on next sign-in.',
    snippets: [
      {
        file: 'auth/passwords.go',
        start: 31,
        code: 'sum := md5.Sum([]byte(password))\nreturn hex.EncodeToString(sum[:])',
        commentary: 'MD5 without a salt or work factor.',
      },
    ],
  },
  {
    title: 'Missing CSRF protection on settings form',
    category: 'csrf',
    severities: ['medium'],
    description: 'The settings endpoint accepts cookie-authenticated POSTs without a CSRF token or origin check.',
    recommendation:
      'Require a CSRF token (or check Origin) on state-changing requests; set SameSite=Lax on the session cookie.',
    snippets: [
      {
        file: 'src/routes/settings.ts',
        start: 9,
        code: "router.post('/settings', requireSession, updateSettings);",
        commentary: 'No CSRF middleware on this route.',
      },
    ],
  },
  {
    title: 'Dependency with a known vulnerability',
    category: 'dependencies',
    severities: ['high', 'medium', 'low'],
    description: 'A pinned dependency version has a published advisory (prototype pollution).',
    recommendation: 'Upgrade to the patched version and run the test suite.',
    snippets: [
      {
        file: 'package.json',
        start: 27,
        code: '"lodash": "4.17.15",',
        commentary: 'Versions before 4.17.21 are affected.',
      },
    ],
  },
  {
    title: 'Session cookie without Secure flag',
    category: 'configuration',
    severities: ['low', 'medium'],
    description: 'The session cookie is sent over plain HTTP too, where it can be read on the network.',
    recommendation: 'Set Secure and HttpOnly on the session cookie.',
    snippets: [
      {
        file: 'server/session.py',
        start: 15,
        code: 'SESSION_COOKIE_SECURE = False\nSESSION_COOKIE_HTTPONLY = False',
        commentary: 'Both flags are off.',
      },
    ],
  },
  {
    title: 'Stack traces returned to clients',
    category: 'information_disclosure',
    severities: ['low'],
    description: 'Unhandled errors answer with the full stack trace, revealing paths and library versions.',
    recommendation: 'Answer a generic problem body and log the trace server-side.',
    snippets: [
      {
        file: 'src/middleware/errors.ts',
        start: 4,
        code: 'res.status(500).json({ error: err.message, stack: err.stack });',
        commentary: '`err.stack` reaches the client.',
      },
    ],
  },
  {
    title: 'Open redirect after sign-in',
    category: 'open_redirect',
    severities: ['medium', 'low'],
    description: 'The `next` parameter is followed without checking it is a path of this site.',
    recommendation: 'Accept only relative paths starting with a single slash.',
    snippets: [
      {
        file: 'web/auth/callback.ts',
        start: 38,
        code: 'return redirect(searchParams.get("next") ?? "/");',
        commentary: '`next` may be an absolute URL to another site.',
      },
    ],
  },
];

export const SEVERITY_RANK: Record<string, number> = { critical: 0, high: 1, medium: 2, low: 3 };
