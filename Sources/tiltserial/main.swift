import TiltserialCommand

TiltserialMain.main()
