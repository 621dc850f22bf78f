"""The embedded secret key (config/keys.py): the data folder's own, made once, kept."""

import pytest

from config.keys import embedded_secret_key


def test_the_key_is_made_once_readable_by_its_owner_alone_and_kept(tmp_path):
    data = tmp_path / "var"
    key = embedded_secret_key(data)
    assert len(key) >= 50
    assert (data / "secret_key").stat().st_mode & 0o777 == 0o600
    assert embedded_secret_key(data) == key
    assert [path.name for path in data.iterdir()] == ["secret_key"]  # no draft left


def test_an_emptied_key_file_is_refused_rather_than_replaced(tmp_path):
    """A new key would silently unmatch every tombstone made with the old one."""
    (tmp_path / "secret_key").write_text("")
    with pytest.raises(ValueError, match="is empty: restore it"):
        embedded_secret_key(tmp_path)
