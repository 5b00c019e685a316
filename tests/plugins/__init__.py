"""A metric that exists only in the tests, installed as a plugin would be (an entry point in the
``ragtui.metrics`` group), to prove that every view shows a dialogue metric it does not name."""
