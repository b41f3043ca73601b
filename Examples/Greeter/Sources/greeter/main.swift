import CoordinatorServer
import Greeter

await CoordinatorServer.main(Greeter.served)
