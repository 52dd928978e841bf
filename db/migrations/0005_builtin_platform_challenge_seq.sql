CREATE SEQUENCE IF NOT EXISTS builtin_platform_challenge_seq START 1;
