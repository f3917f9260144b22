// Vitest setup: jest-dom matchers for tests that opt into jsdom (`// @vitest-environment jsdom`).
import '@testing-library/jest-dom/vitest';
