package oid4vci_test

import (
	"testing"

	"meritmark/app/apptest"
)

func TestMain(m *testing.M) { apptest.Main(m) }
